// Billing: checkout and portal for the account owner, what the web app shows, and Stripe's webhook (no credentials).
import { Elysia } from "elysia";
import type { Deps } from "../../deps";
import { authPlugin, type AuthKit } from "../../auth/plugin";
import { baseUrl } from "../oauth/base-url";
import { responses } from "../../http/responses";
import { AUTH_ERRORS, BillingStatus, ErrorBody, PaymentUrl, ValidationErrorBody, WebhookReceived } from "../../contract/responses";
import { createBillingService } from "./service";
import { createWebhookService } from "./webhook";

export function billingRoutes(deps: Deps, kit: AuthKit) {
  const billing = createBillingService(deps);
  const webhooks = createWebhookService(deps);
  const base = (request: Request, server: { requestIP(r: Request): { address: string } | null } | null) =>
    baseUrl(deps.config, request, server?.requestIP(request)?.address);

  const owner = new Elysia({ prefix: "/user/billing" })
    .use(authPlugin(deps, kit))
    .get("", ({ auth }) => billing.status(auth.user.id), { access: { scope: "account:admin" }, response: responses({ 200: BillingStatus, ...AUTH_ERRORS }) })
    // Owner actions, like the account's other settings; the URLs they answer are single-use credentials, never logged.
    .post("/checkout", ({ auth, request, server }) => billing.checkout(auth.user.id, base(request, server)), { access: { scope: "account:admin" }, response: responses({ 200: PaymentUrl, ...AUTH_ERRORS, 501: ErrorBody, 502: ErrorBody }) })
    .post("/portal", ({ auth, request, server }) => billing.portal(auth.user.id, base(request, server)), { access: { scope: "account:admin" }, response: responses({ 200: PaymentUrl, ...AUTH_ERRORS, 409: ErrorBody, 501: ErrorBody, 502: ErrorBody }) });

  // parse: "none": the signature covers the body byte for byte, so it is read raw (app.ts keeps the strict JSON
  // reader off this path); the body limit still applies (transport.ts, body-limit.ts).
  const webhook = new Elysia().post("/billing/webhook", async ({ request }) => webhooks.receive(await request.text(), request.headers.get("stripe-signature")), {
    parse: "none",
    response: responses({ 200: WebhookReceived, 400: ValidationErrorBody, 501: ErrorBody }),
  });

  return new Elysia().use(owner).use(webhook);
}
