// SQL for billing: the account behind a provider customer, the account's billing fields, and events already applied.
import type { Store } from "../../db/store";
import type { UserRow } from "../users/repo";

export function createBillingRepo(store: Store) {
  const byCustomer = store.query<UserRow, [string]>("SELECT * FROM users WHERE billing_customer_id = ?");
  const seen = store.query<{ n: number }, [string]>("SELECT count(*) AS n FROM billing_events WHERE event_id = ?");
  const record = store.query("INSERT INTO billing_events (event_id, type, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
  return {
    findByCustomer: (customerId: string) => byCustomer.get(customerId),
    eventSeen: async (eventId: string) => (await seen.get(eventId))!.n > 0,
    /** false when the event was already recorded (a concurrent delivery of the same event got there first). */
    recordEvent: async (eventId: string, type: string, at: string) => (await record.run(eventId, type, at)).changes === 1,
  };
}
export type BillingRepo = ReturnType<typeof createBillingRepo>;
