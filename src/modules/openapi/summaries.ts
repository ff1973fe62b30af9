// Human text for the OpenAPI document, keyed by "METHOD /path" under /api/v1; schemas come from the routes themselves.
//
// A route missing here still appears in the document (with a generated summary), so a new module is never invisible.

export interface RouteDoc {
  summary: string;
  description?: string;
  /** Success status when it is not 200 (the spec's 201s). */
  status?: number;
  /** Routes the spec places outside the documented surface (agent socket, admin). */
  internal?: boolean;
  /** Success media type when it is not JSON. */
  contentType?: string;
  /** Further statuses the route answers beyond the common ones (400/401/403/404/429/500), with their meaning. */
  errors?: Record<number, string>;
}

// Anyone but an operator gets the missing-route answer, so the routes look absent.
const OPERATOR_ONLY = { 404: "Not an operator: `{error:\"Not found\"}`" };

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  "GET /health": { summary: "Service health", description: "No auth. Besides the spec's fields: database `sqlite|postgresql` (the store the probe read); mail_capture `{state: off|connecting|connected|failing, error?, last_read_at?}` (capture by e-mail; error says why, never with a secret); embeddings `{model, search_model, reindexing, pending, total, rescoring, subjects_fitting, model_name, languages, scripts, search_model_name, search_languages}` (languages: ISO 639-1 codes the model reads, scripts: the Unicode scripts they are written in, null when not known; docs/search.md). A server still starting (the database open, the app not yet built) answers the spec's fields, database and `starting: true` only.", errors: { 503: "Database probe failed: `{status:\"error\", error:\"Database unavailable\"}`" } },
  "GET /openapi.json": { summary: "This OpenAPI document", description: "No auth." },
  "GET /docs": { summary: "Browsable API reference (HTML)", description: "No auth; a self-contained page rendered from this document.", contentType: "text/html" },

  "POST /auth/login": { summary: "Sign in with e-mail and password", description: "Returns a session token and sets the HTTP-only svc_session cookie.", errors: { 401: "Wrong e-mail or password, or a disabled account: always `{error:\"Unauthorized\"}`", 429: "Ten failed attempts for this e-mail within 15 minutes" } },
  "POST /auth/logout": { summary: "Sign out", description: "Deletes the calling session at once." },
  "GET /auth/session": { summary: "Who is signed in, if anyone", description: "No auth required. With a valid credential (session cookie, Bearer token or API key; `ideas:read` for MCP tokens) 200 `{user}` with the body of GET /user/me; with none, or one that is expired or unknown, 200 `{user:null}` instead of a 401, so the web app can ask on every start without a failed request." },
  "GET /setup": { summary: "Is this instance set up?", description: "No auth. `{needs_setup, registration_open}`: needs_setup is true while the instance has no account (the web app then offers first-run setup); registration_open mirrors the registration_open setting." },
  "POST /setup": { summary: "First run: create the owner account", status: 201, description: "No auth; works only while the instance has no account, with the one-time setup_code the server prints in its log at start. The owner is a Pro operator. Answers like POST /auth/login (session token, svc_session cookie).", errors: { 403: "The instance is already set up", 429: "Too many wrong setup codes; restart the server for a new one" } },
  "POST /auth/register": { summary: "Create an account (open registration only)", status: 201, description: "No auth. Only when the operator set registration_open; otherwise 403. Creates a Free account and signs it in like POST /auth/login.", errors: { 403: "Registration is closed" } },

  "GET /ideas": { summary: "List unarchived ideas, newest first", description: "Filters: status, and either tag or connection_types (tag wins). limit defaults to 20 and is clamped to 100. has_more is true exactly when the page holds `limit` items." },
  "POST /ideas": { summary: "Capture an idea", status: 201, description: "Queued for background processing (embedding, auto-tags, relations, duplicate check); the response carries processing true and vectorize_id null. A Free account holding 50 unarchived ideas gets 403 idea_limit_reached." },
  "GET /ideas/:id": { summary: "One idea with tags, links and relations", description: "Archived ideas are returned too." },
  "PATCH /ideas/:id": { summary: "Update an idea", description: "Only the given fields change; tags replaces all tags." },
  "DELETE /ideas/:id": { summary: "Archive an idea", description: "Permanent; repeating it succeeds." },
  "PATCH /ideas/bulk": { summary: "Update up to 50 ideas at once", description: "Unknown or foreign ids become per-id error rows, not a 404." },
  "POST /ideas/:id/merge": { summary: "Merge another idea into this one", description: "The idea in the path survives; the absorbed one is shelved and archived." },
  "POST /ideas/:id/develop": { summary: "Draft a buildable spec with the caller's AI provider key", errors: { 502: "The provider rejected the request or failed" } },
  "GET /ideas/:id/develop": { summary: "The last spec develop made for this idea", description: "`{spec, provider, model, usage:{input_tokens, output_tokens}, created_at}`; each successful POST replaces it. 404 `No spec yet` before the first one, `Idea not found` for an absent or foreign idea." },
  "GET /ideas/:id/spec": { summary: "The idea's last spec, or none yet", description: "Like GET /ideas/:id/develop, but before the first successful develop it answers 200 with every field null (`{spec:null, provider:null, model:null, usage:null, created_at:null}`) instead of 404 `No spec yet`. 404 `Idea not found` for an absent or foreign idea." },
  "GET /ideas/search": { summary: "Keyword or semantic search", description: "Free accounts get 10 semantic searches per calendar month, then keyword results with semantic_limit_reached." },
  "GET /ideas/duplicates": { summary: "Pending duplicate detections", description: "Always empty on Free. With idea_ids, only the detections that pair one of those ideas." },
  "GET /ideas/duplicates/summary": {
    summary: "Pending duplicates of given ideas, counted",
    description: "An addition to the spec, for badges: per given idea with pending detections, their count and the closest one (the other idea's id, number and title). idea_ids is required; always empty on Free.",
  },
  "POST /ideas/duplicates/:id/dismiss": { summary: "Dismiss a duplicate detection" },
  "POST /ideas/duplicates/:id/merge": { summary: "Merge a detected duplicate pair", description: "The newer idea (idea_id) survives." },
  "GET /ideas/:id/links": { summary: "Links of an idea, newest first" },
  "POST /ideas/:id/links": { summary: "Attach a link to an idea", status: 201 },
  "DELETE /ideas/:id/links/:linkId": { summary: "Remove a link", description: "Answers success also for a link that does not exist." },
  "GET /ideas/:id/relations": { summary: "Outgoing and incoming relations of an idea" },
  "GET /ideas/:id/wikilinks": { summary: "What each [[wikilink]] of an idea's body names, and the ideas linking here", description: "`{links:[{target, idea:{id, number, title}|null}], linked_from:[{id, number, title}]}`. links: each distinct `[[Title]]`, `[[Title|shown]]`, `[[Title#Heading]]`, `![[Title]]` or `[[#42]]` of the body in order (files and code left out), with the account's idea it names (title case-insensitive; of two ideas of one title the oldest live one), or null. linked_from: live ideas whose links (or an import's) made a relation to this one." },
  "GET /ideas/:id/versions": { summary: "Every version of an idea's title and body, newest first", description: "`{versions:[{version, title, body, writer, created_at}]}`; the first is the current text. Version 1 is the capture; every change of title or body by any writer adds one. writer: web, api, mcp, agent, import, merge, restore, or the capture's source for version 1." },
  "GET /ideas/:id/versions/:version": { summary: "One version of an idea", description: "404 `Version not found` when the idea has no such version; 400 `Invalid version` when it is not an integer.", errors: { 404: "`Idea not found` (absent or another account's), or `Version not found`" } },
  "POST /ideas/:id/versions/:version/restore": { summary: "Restore a version's title and body", description: "Answers the idea as GET /ideas/:id does. The restore is itself a new version (writer restore); restoring the current text changes nothing.", errors: { 404: "`Idea not found` (absent or another account's), or `Version not found`" } },

  "GET /tags": { summary: "Every tag with its idea count" },
  "GET /tags/similar": { summary: "Tags similar to a given tag", errors: { 404: "`Tag \"<name>\" not found`" } },
  "POST /tags": { summary: "Create a tag", status: 201, errors: { 409: "Tag name already exists" } },
  "PATCH /tags/:id": { summary: "Rename or recolour a tag" },
  "DELETE /tags/:id": { summary: "Delete a tag and detach it from every idea" },

  "POST /map/relations": { summary: "Create one relation or up to 50 (Pro)", status: 201, errors: { 409: "Relation already exists" }, description: "Cycle checks for blocks, parent and supersedes (force=true overrides supersedes only)." },
  "PATCH /map/relations/:id": { summary: "Change a relation's type or note (Pro)" },
  "DELETE /map/relations/:id": { summary: "Delete a relation (Pro)", description: "Always 200, also for unknown ids." },
  "GET /map": { summary: "Mind-map graph of ideas and relations" },
  "GET /map/positions": { summary: "Remembered mind-map positions of the account's ideas", description: "Where the web app's layout last put each live idea (`{positions:[{id,x,y}]}`, graph coordinates, by id). Ideas without a saved position are absent; archived ideas are never listed. See docs/relations-map.md." },
  "PUT /map/positions": { summary: "Save mind-map positions (up to 10,000 per call)", description: "Upserts `{positions:[{id,x,y}]}`; ideas not listed keep theirs. Ids that are not the caller's live ideas (another account's, archived, deleted, unknown) are ignored and counted in `ignored`, never an error. 200 `{saved, ignored}`." },
  "DELETE /map/positions": { summary: "Forget every saved mind-map position", description: "The next visit lays the whole map out afresh. Always 200 `{success:true}`." },

  "GET /review": { summary: "Review queue: stale ideas, new connections, duplicates" },
  "GET /review/counts": {
    summary: "Review queue counts, without the items",
    description: "An addition to the spec, for badges: the counts of GET /review (the same reading), the ids of the connections counted, and stale_threshold_days.",
  },
  "POST /review/:ideaId/keep": { summary: "Keep a stale idea (resets its staleness)" },

  "GET /user/me": { summary: "The calling account" },
  "PATCH /user/me": { summary: "Update display name, avatar or settings", description: "settings_json: out-of-range values of the spec's keys are dropped silently. The capture-by-e-mail keys (additions, docs/email.md) are checked instead, because a bad allow-list would read as none: `email_capture_reply` and `email_capture_authenticated_only` must be true or false, `email_capture_senders` a list of up to 100 addresses (`name@example.com`) or domains (`@example.com`); otherwise 400 `{error:{settings_json:[<sentence naming the key>]}}`. A value equal to the one stored (or null) is accepted as it is." },
  "DELETE /user": {
    summary: "Delete your own account and everything it owns",
    description: "An addition to the spec. Body `{password}` (the account's password, re-entered), or `{email}` for an account that has no password. Removes the account, its ideas, tags, relations, keys, tokens, sessions and settings for good, and clears the session cookie. 400 with the password (or email) field error when it is missing; 403 `Password is incorrect`; 409 while a paid subscription runs or for the instance's only operator. Not for MCP tokens (account:admin).",
    errors: { 403: "The password is incorrect", 409: "A subscription is still running, or this is the only operator" },
  },
  "GET /user/api-keys": { summary: "List API keys" },
  "POST /user/api-keys": { summary: "Create an API key (Pro)", status: 201, description: "The key is shown only in this response." },
  "DELETE /user/api-keys/:id": { summary: "Revoke an API key or MCP token" },
  "GET /user/mcp-tokens": { summary: "List tokens issued through MCP OAuth" },
  "PUT /user/byok/:provider": { summary: "Store an AI provider key (Pro)" },
  "DELETE /user/byok/:provider": { summary: "Remove an AI provider key" },
  "POST /user/byok/:provider/test": { summary: "Test the stored provider key (Pro)", description: "Always 200; check ok." },
  "GET /user/byok/status": { summary: "Which provider keys are stored and which is active" },
  "GET /user/shortcuts": { summary: "Quick-capture shortcut URL and the personal capture e-mail address", description: "capture_email (an addition to the spec): the account's own address for capture by e-mail (`ideas+<token>@…`, made on first ask), null when the instance does not read a mailbox. Treat it as a credential: whoever knows it can file ideas into the account. capture_email_can_authenticate (an addition): this instance trusts a receiving mail server's Authentication-Results (`imap.trusted_authserv_ids`), so senders can be authenticated; without it an account with `email_capture_authenticated_only` files nothing. capture_email_can_reply (an addition): SMTP is configured, so `email_capture_reply` can send. Both false while capture by e-mail is off." },
  "POST /user/capture-email/regenerate": { summary: "A new capture e-mail address", description: "Addition to the spec. Replaces the account's capture address with a new random one; mail to the old address is no longer filed from this moment. `{capture_email}`, null when capture by e-mail is off." },
  "GET /user/support-link": { summary: "Single-use sign-in URL for the support site", errors: { 502: "The support service is unreachable" } },
  "POST /user/test-digest": { summary: "Send the weekly digest to yourself now" },
  "POST /user/export": { summary: "Export everything as JSON" },
  "GET /vault": { summary: "The account's folder of Markdown: connected or not, last sync, files, conflicts, errors", description: "An addition to the spec (docs/vault.md). `folder` is relative to the instance's vaults root when the person chose it (`chosen_by: person`), or the path the operator bound (`chosen_by: operator`); null when not connected. `can_choose`: the instance has a root (vaults_dir), so PUT and DELETE work. `progress` says how far a running first sync is (`phase` reading, importing or writing; `done` of `total` notes or files in that phase); null otherwise. A first sync that failed leaves `initial_sync_at` null, `progress` null and the reason in `last_error` (it is tried again every few seconds)." },
  "PUT /vault": { summary: "Choose a folder under the instance's vaults root", description: "An addition to the spec. Body `{folder}`: a name (or a/b path) under the root, made when missing; the same folder again is a no-op. The state as GET answers it. A name with `..`, an absolute path, a hidden segment or a symbolic link out of the root is a 400 field error on `folder`.", errors: { 400: "The folder name is missing, absolute, holds `..`, or leads outside the root", 403: "The instance has no vaults root (only the operator binds folders)", 409: "Already connected to another folder, or the folder is another account's" } },
  "DELETE /vault": { summary: "Disconnect the folder (files and ideas stay)", description: "An addition to the spec. The state as GET answers it (not connected); disconnecting when not connected is a no-op.", errors: { 403: "The instance has no vaults root, or the folder was bound by the operator" } },
  "POST /user/export/csv": { summary: "Export ideas as CSV", contentType: "text/csv" },
  "POST /user/export/markdown": { summary: "Export ideas as a ZIP of Markdown files", contentType: "application/zip" },
  "POST /user/import": { summary: "Import a file: our JSON export or vault ZIP, or another app's export", status: 201, description: "The file is the raw request body (not multipart), up to import_body_limit_bytes. Sources: idearepo, obsidian, logseq, notion, keep, evernote, memos, karakeep, apple-notes, basic-memory, markdown — detected from the file or named with `from`. Our own export answers `{imported:{ideas,tags,links,relations}, skipped:{relations,files}}` and is appended as is; other apps answer `{source, dry_run, imported:{ideas,created,updated,unchanged,tags,links,relations}, skipped:{relations,files,items:[{skipped,reason}]}, problems:[{origin,problem}], queued}` and are idempotent: a second import updates changed notes and skips unchanged ones. `dry_run=true` answers 200 with the same report (and `notes:[{origin,title,action,reason}]`) and writes nothing. See docs/export-import.md.", errors: { 400: "Not a file any source reads (the message lists the sources), an unknown `from`, invalid JSON, a broken ZIP or a refused one (ZIP bomb, too many entries), or validation errors of our export by place", 403: "Free plan: the import would pass 50 active ideas (the idea-cap body)", 413: "Body over import_body_limit_bytes" } },

  "GET /agent/ws": {
    summary: "Agent WebSocket (Pro)",
    internal: true,
    description: "Upgrades to a WebSocket for asking questions of your ideas with your own AI provider key. Credentials as for any route (svc_session cookie from this site's pages, X-API-Key, Authorization: Bearer; an MCP token needs ideas:read, and ideas:write for any action). Messages are JSON objects with a `type`: the client sends `ask`, `confirm`, `cancel`; the server sends `delta`, `tool`, `proposal`, `done`, `error`. Every change the agent wants to make is a `proposal` that runs only after `confirm` with approve:true. The full message contract, limits and a transcript: docs/agent.md.",
    errors: { 403: "Free plan (the plan-gate body, pro_required true), a token without ideas:read, or a cookie upgrade from another site", 426: "Not a WebSocket upgrade request" },
  },
  "GET /agent/conversations": { summary: "The agent's conversations, most recent first", description: "`{conversations:[{id, title, usage:{input_tokens, output_tokens}, message_count, created_at, updated_at}], has_more}`; `limit` (default 50, at most 200) and `offset` clamp like every list. Not gated: a Free account still sees and deletes what it said while on Pro. See docs/agent.md." },
  "GET /agent/conversations/:id": { summary: "One agent conversation with its messages", description: "`{conversation:{id, title, usage, created_at, updated_at, messages:[…]}}`: questions (`role:user`), answer rounds (`role:assistant`, text, tool calls, usage, provider, model) and tool results (`role:tool`, each with its status: done, error, approved, declined, cancelled, expired, refused). See docs/agent.md.", errors: { 404: "Not a conversation of yours: `{error:\"Conversation not found\"}`" } },
  "DELETE /agent/conversations/:id": { summary: "Delete an agent conversation", description: "`{success:true}`; its messages go with it.", errors: { 404: "Not a conversation of yours: `{error:\"Conversation not found\"}`" } },
  "GET /user/billing": { summary: "Billing state for the Plan settings", description: "`{billing_enabled, subscription_status, can_manage}`: whether this instance takes payments, the subscription's last known status (`active`, `past_due`, `canceled` …, null when there never was one), and whether the account has a Stripe customer for the billing portal. See docs/billing.md." },
  "POST /user/billing/checkout": { summary: "Upgrade: a Stripe Checkout URL", description: "No body. `{url}`: a single-use Stripe Checkout page subscribing the account to the operator's price (the account's Stripe customer is reused when it has one). The plan changes when Stripe's webhook arrives, not here. See docs/billing.md.", errors: { 409: "The account already has a subscription (use the portal)", 501: "Billing is not available on a self-hosted instance (billing is off)", 502: "Stripe could not be reached, or refused the request" } },
  "POST /user/billing/portal": { summary: "Manage billing: a Stripe Billing Portal URL", description: "No body. `{url}`: a single-use Stripe Billing Portal page for the account's customer (cancel, change card, invoices).", errors: { 409: "`No billing account yet: upgrade first` (the account has never been through checkout)", 501: "Billing is not available on a self-hosted instance (billing is off)", 502: "Stripe could not be reached, or refused the request" } },
  "POST /billing/webhook": { summary: "Stripe's webhook endpoint", description: "No credential: the `Stripe-Signature` header (HMAC-SHA256 over `t.payload` with the endpoint's signing secret, 5-minute tolerance) is the proof. Acts on checkout.session.completed, customer.subscription.created/updated/deleted and invoice.payment_failed by fetching the subscription's current state; other types are acknowledged. `{received:true}`, with `duplicate:true` for an event id already applied.", errors: { 400: "Missing, forged or stale signature, or a body that is not an event; nothing changes", 501: "Billing is off on this instance (no billing settings): `{error:\"Billing is off on this instance, so it accepts no payment events: remove this endpoint from the payment provider's webhooks, or turn billing on (…)\"}`. Stripe retries a failed delivery for days, so the operator removes the endpoint there or sets the billing settings", 502: "Stripe could not be reached to fetch the subscription; the event is not recorded, so Stripe's redelivery applies it" } },

  "POST /auth/accept-invitation": { summary: "Accept an invitation: set the password and sign in", description: "No auth. `{token, password}` with the token an operator's POST /admin/users returned (single use, 7 days). Answers like POST /auth/login (session token, svc_session cookie); an unknown, used or expired token is 400 `Invitation is invalid or has expired`." },
  // Operator-only (users.is_operator): anyone else gets the missing-route 404, and no MCP token reaches them.
  "GET /admin/users": { summary: "Operator: every account", description: "`{users:[{id, email, display_name, plan, is_operator, disabled, is_trialing, trial_ends_at, subscription_status, active_idea_count, created_at}]}`; never ideas or key material. Non-operators get 404 `Not found`.", internal: true, errors: OPERATOR_ONLY },
  "POST /admin/users": { summary: "Operator: create an account", status: 201, description: "`{email, display_name?, password?, plan?}` → `{user}`; without a password → `{user, invitation:{token, expires_at}}` for POST /auth/accept-invitation.", internal: true, errors: OPERATOR_ONLY },
  "PATCH /admin/users/:id": { summary: "Operator: change plan, trial, password or disabled", description: "`{plan?, trial_days?, disabled?, password?}` → `{user}`. plan and trial_days together, or disabling yourself, is 400.", internal: true },
  "DELETE /admin/users/:id": { summary: "Operator: delete an account and everything it owns", description: "An addition. `{deleted:{id, ideas, tags}}`. Your own account is 400 (use DELETE /user); an account whose paid subscription still runs is 409; an unknown id is 404.", internal: true, errors: { 400: "Your own account", 404: "Not an operator (`{error:\"Not found\"}`), or no such account (`{error:\"User not found\"}`)", 409: "A paid subscription still runs" } },
  "GET /admin/users/:id/history": { summary: "Operator: an account's plan changes", description: "`{history:[{source, plan_before, plan_after, note, created_at}]}`, newest first; source is `operator`, `cli` or `billing`.", internal: true, errors: OPERATOR_ONLY },
  "GET /admin/instance": { summary: "Operator: version, disk, queue, embeddings, last backup", internal: true, errors: OPERATOR_ONLY },
  "GET /admin/backup": { summary: "Operator: download a consistent copy of the database", description: "A SQLite file, `Content-Disposition: attachment; filename=\"idearepo-backup-YYYY-MM-DD.db\"`. Only on the SQLite store: an instance on PostgreSQL answers 501 and is backed up with pg_dump.", contentType: "application/vnd.sqlite3", internal: true, errors: { ...OPERATOR_ONLY, 501: "The instance keeps its data in PostgreSQL: `{error:\"This instance keeps its data in PostgreSQL: back it up with pg_dump …\"}`" } },
};
