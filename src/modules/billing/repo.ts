// SQL for billing: the account behind a provider customer, the account's billing fields, and events already applied.
import type { Db } from "../../db/open";
import type { UserRow } from "../users/repo";

export function createBillingRepo(db: Db) {
  const byCustomer = db.query<UserRow, [string]>("SELECT * FROM users WHERE billing_customer_id = ?");
  const seen = db.query<{ n: number }, [string]>("SELECT count(*) AS n FROM billing_events WHERE event_id = ?");
  const record = db.query("INSERT OR IGNORE INTO billing_events (event_id, type, received_at) VALUES (?, ?, ?)");
  return {
    findByCustomer: (customerId: string) => byCustomer.get(customerId),
    eventSeen: (eventId: string) => seen.get(eventId)!.n > 0,
    /** false when the event was already recorded (a concurrent delivery of the same event got there first). */
    recordEvent: (eventId: string, type: string, at: string) => record.run(eventId, type, at).changes === 1,
  };
}
export type BillingRepo = ReturnType<typeof createBillingRepo>;
