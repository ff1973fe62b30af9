// Plan: Free or Pro, trial days left, the Free cap's use, and (when the instance takes payments) Upgrade and Manage billing.
import { useEffect, useState } from "preact/hooks";
import { getMe } from "../../api/user";
import type { User } from "../../api/types";
import { getBilling, LIVE_SUBSCRIPTION, openBillingPortal, startCheckout, subscriptionLabel, type BillingStatus } from "../../api/billing";
import { describeError } from "../../errors";
import { useSession } from "../../session";
import { Section, sectionTitle } from "./section";

const FREE_IDEA_CAP = 50;

export function PlanSection() {
  const { user: sessionUser } = useSession();
  // The session's copy may come from sign-in, without the GET-only fields (idea count, trial days): read them here.
  const [stats, setStats] = useState<User | null>(null);
  const [billing, setBilling] = useState<BillingStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  useEffect(() => {
    getMe().then(setStats, () => {});
    getBilling().then(setBilling, () => {});
  }, [sessionUser.plan, sessionUser.updated_at]);
  const user = { ...sessionUser, ...(stats ?? {}) };
  const live = billing?.subscription_status ? LIVE_SUBSCRIPTION.has(billing.subscription_status) : false;

  // The URL is single use: the browser goes there at once, and it is kept nowhere.
  const go = async (make: () => Promise<{ url: string }>) => {
    setBusy(true);
    setError("");
    try {
      window.location.assign((await make()).url);
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };

  return (
    <Section id="plan" title={sectionTitle("plan")}>
      <dl class="settings-facts">
        <dt>Plan</dt>
        <dd>
          <span class={`badge plan-${user.plan}`}>{user.plan === "pro" ? "Pro" : "Free"}</span>{" "}
          {user.is_trialing && user.trial_days_remaining != null && (
            <span>trial, {user.trial_days_remaining} {user.trial_days_remaining === 1 ? "day" : "days"} remaining</span>
          )}
          {user.plan === "free" && user.active_idea_count !== undefined && (
            <span class="muted">{user.active_idea_count} of {FREE_IDEA_CAP} ideas used</span>
          )}
        </dd>
        {billing?.subscription_status && (
          <>
            <dt>Billing</dt>
            <dd>{subscriptionLabel(billing.subscription_status)}</dd>
          </>
        )}
      </dl>
      {billing?.subscription_status === "past_due" && (
        <p class="small">Your last payment did not go through. Pro stays on while the payment is retried; update your card in Manage billing.</p>
      )}
      {billing && !billing.billing_enabled && <p class="muted small">Plans on this instance are set by its operator.</p>}
      {billing?.billing_enabled && (
        <>
          {!live && <p class="small">Pro lifts the {FREE_IDEA_CAP}-idea cap and unlocks API keys, your own AI keys and relation editing.</p>}
          <div class="actions">
            {!live && <button type="button" class="btn primary" disabled={busy} onClick={() => go(startCheckout)}>Upgrade</button>}
            {billing.can_manage && <button type="button" class="btn" disabled={busy} onClick={() => go(openBillingPortal)}>Manage billing</button>}
          </div>
        </>
      )}
      {error && <p class="form-error" role="alert">{error}</p>}
    </Section>
  );
}
