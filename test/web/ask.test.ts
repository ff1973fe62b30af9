// The Ask page in a real browser against a streaming fake provider (Anthropic's SSE): the answer streams in as
// sanitized Markdown with #numbers linked, look-ups shown compactly, a proposal approved from the keyboard, the
// conversation list (reopen, delete), Free and no-key accounts, phone width, dark, axe, no console errors.
declare const window: any;
import { afterAll, beforeAll, expect, test } from "bun:test";
import { api } from "../ops/harness";
import { startStreamFake, type StreamFake } from "../fakes/stream-providers";
import { a11yViolations, createAccount, describeBrowser, expectClean, screenshot, signIn, webScope, type WebServer } from "./harness";

const PROVIDER_KEY = "sk-fake-ask-0123456789abcdef";

describeBrowser("the Ask page", () => {
  const web = webScope("idearepo-web-ask-");
  let server: WebServer;
  let fake: StreamFake;
  beforeAll(async () => {
    fake = startStreamFake("anthropic");
    fake.validKeys.add(PROVIDER_KEY);
    server = await web.server({
      IDEAREPO_PROVIDER_A__PROTOCOL: "anthropic",
      IDEAREPO_PROVIDER_A__BASE_URL: fake.baseUrl,
      IDEAREPO_PROVIDER_A__MODEL: "claude-fake-1",
      IDEAREPO_PROVIDER_TIMEOUT_MS: "10000",
    });
  }, 40_000);
  afterAll(() => fake?.stop());

  async function account(plan: "pro" | "free", withKey = true) {
    const email = `a${Math.random().toString(36).slice(2, 9)}@example.com`;
    const key = createAccount(server, email, "correct horse battery", plan);
    if (withKey && plan === "pro") expect((await api(server.base, key, "PUT", "/user/byok/provider_a", { api_key: PROVIDER_KEY })).status).toBe(200);
    return { email, key };
  }

  test("ask, watch it stream, follow a #number, approve a proposal with the keyboard; reopen and delete the conversation", async () => {
    const { email, key } = await account("pro");
    const kettle = (await api(server.base, key, "POST", "/ideas", { title: "Solar kettle", body: "Mirrors boil water." })).body as { id: number; number: number };
    fake.script = (req, n) =>
      n === 0
        ? { steps: [{ text: "Searching. " }, { call: { name: "search_ideas", input: { q: "kettle", mode: "keyword" } } }], pauseMs: 5 }
        : n === 1
          ? {
              steps: [
                { text: `You have **#${kettle.number}**, a solar kettle. <img src=x onerror="window.__pwned=1"> I can tag it.` },
                { call: { name: "update_idea", input: { id: kettle.id, tags: ["energy"] } } },
              ],
              pauseMs: 5,
            }
          : { steps: [{ text: "Tagged." }] };
    const o = await web.open(server.base, "/ask", { viewport: "phone", colorScheme: "dark" });
    await signIn(o.page, email, "correct horse battery");
    await o.page.getByRole("heading", { level: 1, name: "Ask" }).waitFor();
    expect(await a11yViolations(o.page)).toEqual([]);

    await o.page.getByLabel("Question").fill("Anything about kettles?");
    await o.page.keyboard.press("Enter");
    const approve = o.page.getByRole("button", { name: "Approve" });
    await approve.waitFor();
    // The look-up shows compactly; the answer is Markdown with the raw HTML inert and #number linked to the idea.
    await o.page.getByText("Searched ideas").waitFor();
    expect(await o.page.locator(".ask-answer strong").first().textContent()).toBe(`#${kettle.number}`);
    expect(await o.page.evaluate(() => window.__pwned)).toBeUndefined();
    await o.page.getByText("Update #1 “Solar kettle”: tags → energy").waitFor();
    // Keyboard: the proposal takes focus; Enter approves.
    expect(await approve.evaluate((b) => b === (b.ownerDocument as any).activeElement)).toBe(true);
    await o.page.keyboard.press("Enter");
    await o.page.getByText("Approved and done").waitFor();
    await o.page.getByText(/in · \d+ out tokens · claude-fake-1/).last().waitFor();
    await o.page.getByText(/This conversation: [\d,]+ in · [\d,]+ out tokens/).waitFor();
    const tags = ((await api(server.base, key, "GET", `/ideas/${kettle.id}`)).body as { tags: string[] }).tags;
    expect(tags).toEqual(["energy"]);
    const link = o.page.getByRole("link", { name: `#${kettle.number}` }).first();
    expect(await link.getAttribute("href")).toBe(`/ideas/${kettle.id}`);
    expect(await a11yViolations(o.page)).toEqual([]);
    await screenshot(o.page, "ask-phone-dark");

    // The conversation is in the list; a new one clears the page; reopening shows what was said and the outcome.
    const entry = o.page.getByRole("navigation", { name: "Conversations" }).getByRole("button", { name: /^Anything about kettles\?/ });
    await entry.waitFor();
    await o.page.getByRole("button", { name: "New", exact: true }).click();
    await o.page.getByText(/Ask about your ideas:/).waitFor();
    await entry.click();
    await o.page.getByText("Anything about kettles?").first().waitFor();
    await o.page.getByText("Approved and done").waitFor();
    await link.click();
    await o.page.getByRole("heading", { level: 1, name: /Solar kettle/ }).waitFor();
    await o.page.getByRole("link", { name: "Ask about this idea" }).click();
    await o.page.getByText("Asking about").waitFor();
    await o.page.getByRole("navigation", { name: "Conversations" }).getByRole("button", { name: /^Delete conversation/ }).click();
    await o.page.getByText("None yet.").waitFor();
    expect(((await api(server.base, key, "GET", "/agent/conversations")).body as { conversations: unknown[] }).conversations).toEqual([]);
    expectClean(o);
  });

  test("stop mid-answer: the answer stops at once and says so", async () => {
    const { email } = await account("pro");
    fake.script = () => ({ steps: [{ text: "A very long answer ".repeat(40) }], pauseMs: 30 });
    const o = await web.open(server.base, "/ask");
    await signIn(o.page, email, "correct horse battery");
    await o.page.getByLabel("Question").fill("Tell me everything");
    await o.page.getByRole("button", { name: "Ask" }).click();
    await o.page.locator(".ask-answer").waitFor();
    await o.page.getByRole("button", { name: "Stop" }).click();
    await o.page.getByText(/Stopped · /).waitFor();
    await o.page.getByRole("button", { name: "Ask" }).waitFor();
    expectClean(o);
  });

  test("a Free account learns what the agent is and that it needs Pro; an account without a key gets a link to Settings", async () => {
    const free = await account("free");
    const o = await web.open(server.base, "/ask", { colorScheme: "light" });
    await signIn(o.page, free.email, "correct horse battery");
    await o.page.getByText("The agent requires a Pro plan.").waitFor();
    await o.page.getByText(/approve each change before it happens/).waitFor();
    expect(await o.page.getByLabel("Question").count()).toBe(0);
    expect(await a11yViolations(o.page)).toEqual([]);
    expectClean(o);

    const nokey = await account("pro", false);
    const p = await web.open(server.base, "/ask");
    await signIn(p.page, nokey.email, "correct horse battery");
    const settings = p.page.getByRole("link", { name: "Add a provider key in Settings" });
    await settings.waitFor();
    expect(await settings.getAttribute("href")).toBe("/settings#provider-keys");
    expect(await a11yViolations(p.page)).toEqual([]);
    expectClean(p);
  });
});
