// POST /ideas/:id/develop against fake providers speaking the real wire formats: what is sent, what comes back, failures.
import { beforeEach, describe, expect, test } from "bun:test";
import { call, makeUser, type TestUser } from "../helpers";
import { createApiKeysService } from "../../src/modules/api-keys/service";
import { createUsersService } from "../../src/modules/users/service";
import { fakeKey, makeAiApp, MODELS, providersConfig, startFakes, useAiApp } from "../fakes/ai-app";
import { hang } from "../fakes/providers";
import { seedLink } from "../fixtures/seed";

const { fakes, t, logs } = useAiApp();
beforeEach(() => {
  for (const f of [fakes.a, fakes.b, fakes.c]) {
    f.answer = (req) => `## Problem\nSpec for a request of ${JSON.stringify(req.body).length} bytes.\n\n## Proposed solution\n…`;
  }
});

const createIdea = async (u: TestUser, body: Record<string, unknown>) => {
  const r = await call(t, "POST", "/ideas", { key: u.key, body });
  expect(r.status).toBe(201);
  return r.body as { id: number; number: number };
};

const relate = async (u: TestUser, source: number, target: number, relation_type: string) => {
  const r = await call(t, "POST", "/map/relations", { key: u.key, body: { source_idea_id: source, target_idea_id: target, relation_type } });
  expect(r.status).toBe(201);
};

/** A Pro user whose provider key the fake accepts. */
async function proWithKey(provider: "provider_a" | "provider_b" | "provider_c" = "provider_a") {
  const u = await makeUser(t, { plan: "pro" });
  const apiKey = fakeKey();
  ({ provider_a: fakes.a, provider_b: fakes.b, provider_c: fakes.c })[provider].validKeys.add(apiKey);
  expect((await call(t, "PUT", `/user/byok/${provider}`, { key: u.key, body: { api_key: apiKey } })).status).toBe(200);
  return { u, apiKey };
}

const develop = (u: TestUser, id: number | string) => call(t, "POST", `/ideas/${id}/develop`, { key: u.key });

describe("POST /ideas/:id/develop — success", () => {
  test("sends the idea, tags, unarchived related ideas and links to Anthropic's Messages API and answers {spec, provider, model, usage}", async () => {
    const { u, apiKey } = await proWithKey("provider_a");
    const idea = await createIdea(u, { title: "Offline-first field notes", body: "Capture notes without signal and sync later.", tags: ["mobile", "sync"] });
    const parent = await createIdea(u, { title: "Sync engine for small teams", body: "CRDT based merge of notes. ".repeat(30) });
    const fan = await createIdea(u, { title: "Voice memo capture", body: "Record and transcribe." });
    const gone = await createIdea(u, { title: "Archived neighbour idea", body: "Should not be sent." });
    await relate(u, idea.id, parent.id, "blocks");
    await relate(u, fan.id, idea.id, "inspires");
    await relate(u, idea.id, gone.id, "related");
    expect((await call(t, "DELETE", `/ideas/${gone.id}`, { key: u.key })).status).toBe(200);
    await seedLink(t, idea.id, { url: "https://github.com/example/notes", title: "Prototype repo", link_type: "code-repo" });

    const r = await develop(u, idea.id);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(["model", "provider", "spec", "usage"]);
    expect(fakes.a.requests.length).toBe(1);
    const sent = fakes.a.requests[0];
    const reply = fakes.a.lastReply;
    expect(r.body).toEqual({
      spec: reply.content[0].text,
      provider: "provider_a",
      model: MODELS.provider_a,
      usage: { input_tokens: reply.usage.input_tokens, output_tokens: reply.usage.output_tokens },
    });
    expect(r.body.usage.input_tokens).toBeGreaterThan(0);

    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe(apiKey);
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.headers["content-type"]).toContain("application/json");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body.model).toBe(MODELS.provider_a);
    expect(sent.body.max_tokens).toBe(4096);
    expect(sent.body.messages).toHaveLength(1);
    expect(sent.body.messages[0].role).toBe("user");
    for (const section of ["Problem", "Proposed solution", "Key features", "Technical approach", "Open questions"]) {
      expect(sent.body.system).toContain(section);
    }
    expect(sent.body.system).toMatch(/1,500 words/);
    expect(sent.body.system).toMatch(/Mermaid/);
    const prompt: string = sent.body.messages[0].content;
    for (const part of [
      "Offline-first field notes", "Capture notes without signal and sync later.", "Status: captured", "mobile, sync",
      "Sync engine for small teams", "CRDT based merge", "Voice memo capture", "Record and transcribe.", "inspires", "blocks",
      "https://github.com/example/notes", "Prototype repo", "code-repo",
    ]) expect(prompt).toContain(part);
    expect(prompt).not.toContain("Archived neighbour idea");
    // related bodies are short excerpts, not the whole text
    expect(prompt).not.toContain("CRDT based merge of notes. ".repeat(30).trim());
    expect(logs.join("\n")).not.toContain(apiKey);
  });

  test("OpenAI Chat Completions format through provider_b (system + user messages, Bearer key, usage mapped)", async () => {
    const { u, apiKey } = await proWithKey("provider_b");
    const idea = await createIdea(u, { title: "Plant watering reminder", status: "exploring" });
    const r = await develop(u, idea.id);
    expect(r.status).toBe(200);
    const sent = fakes.b.requests[0];
    const reply = fakes.b.lastReply;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${apiKey}`);
    expect(sent.body.model).toBe(MODELS.provider_b);
    expect(sent.body.max_tokens).toBe(4096);
    expect(sent.body.messages.map((m: any) => m.role)).toEqual(["system", "user"]);
    expect(sent.body.messages[1].content).toContain("Plant watering reminder");
    expect(sent.body.messages[1].content).toContain("Status: exploring");
    expect(r.body).toEqual({
      spec: reply.choices[0].message.content,
      provider: "provider_b",
      model: MODELS.provider_b,
      usage: { input_tokens: reply.usage.prompt_tokens, output_tokens: reply.usage.completion_tokens },
    });
  });

  test("Gemini generateContent format through provider_c (x-goog-api-key, systemInstruction, maxOutputTokens)", async () => {
    const { u, apiKey } = await proWithKey("provider_c");
    const idea = await createIdea(u, { title: "Recipe scaler", body: "Scale by servings." });
    const r = await develop(u, idea.id);
    expect(r.status).toBe(200);
    const sent = fakes.c.requests[0];
    const reply = fakes.c.lastReply;
    expect(sent.path).toBe(`/v1beta/models/${MODELS.provider_c}:generateContent`);
    expect(sent.headers["x-goog-api-key"]).toBe(apiKey);
    expect(sent.body.generationConfig.maxOutputTokens).toBe(4096);
    expect(sent.body.systemInstruction.parts[0].text).toContain("Open questions");
    expect(sent.body.contents).toEqual([{ role: "user", parts: [{ text: expect.stringContaining("Recipe scaler") }] }]);
    expect(r.body).toEqual({
      spec: reply.candidates[0].content.parts[0].text,
      provider: "provider_c",
      model: MODELS.provider_c,
      usage: { input_tokens: reply.usageMetadata.promptTokenCount, output_tokens: reply.usageMetadata.candidatesTokenCount },
    });
  });

  test("the active provider follows the preference, else the first stored key", async () => {
    const u = await makeUser(t, { plan: "pro" });
    for (const p of ["provider_b", "provider_c"]) await call(t, "PUT", `/user/byok/${p}`, { key: u.key, body: { api_key: fakeKey() } });
    fakes.b.requireAuth = fakes.c.requireAuth = false;
    const idea = await createIdea(u, { title: "Which provider?" });
    expect((await develop(u, idea.id)).body.provider).toBe("provider_b");
    await call(t, "PATCH", "/user/me", { key: u.key, body: { settings_json: JSON.stringify({ preferred_ai_provider: "provider_c" }) } });
    expect((await develop(u, idea.id)).body.provider).toBe("provider_c");
    expect([fakes.b.requests.length, fakes.c.requests.length]).toEqual([1, 1]);
  });

  test("a local OpenAI-compatible server (no auth, e.g. Ollama) works through provider_b", async () => {
    const local = startFakes();
    local.b.requireAuth = false;
    local.b.answer = () => "## Problem\nlocal model answer";
    const tl = makeAiApp(local, { config: { providers: { ...providersConfig(local), provider_b: { protocol: "openai", base_url: local.b.baseUrl, model: "llama3.2:3b" } } } });
    try {
      const u = await makeUser(tl, { plan: "pro" });
      await call(tl, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: "ollama-local" } });
      const idea = (await call(tl, "POST", "/ideas", { key: u.key, body: { title: "Homelab only" } })).body;
      const r = await call(tl, "POST", `/ideas/${idea.id}/develop`, { key: u.key });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ spec: "## Problem\nlocal model answer", provider: "provider_b", model: "llama3.2:3b" });
      expect(local.b.requests[0].body.model).toBe("llama3.2:3b");
    } finally {
      tl.close();
      local.stop();
    }
  });

  test("archived ideas can be developed (they stay readable through GET /ideas/:id)", async () => {
    const { u } = await proWithKey();
    const idea = await createIdea(u, { title: "Old but gold" });
    await call(t, "DELETE", `/ideas/${idea.id}`, { key: u.key });
    const r = await develop(u, idea.id);
    expect(r.status).toBe(200);
    expect(fakes.a.requests[0].body.messages[0].content).toContain("Old but gold");
  });

  test("develop is not plan-gated: a downgraded account with a stored key can still use it", async () => {
    const { u } = await proWithKey();
    const idea = await createIdea(u, { title: "Downgraded" });
    await createUsersService(t.deps).setPlan(u.id, "free");
    expect((await develop(u, idea.id)).status).toBe(200);
  });
});

describe("POST /ideas/:id/develop — failures", () => {
  test("no provider key: 400 {error, needs_byok:true} and no provider call", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const idea = await createIdea(u, { title: "No key yet" });
    const r = await develop(u, idea.id);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: expect.any(String), needs_byok: true });
    expect(fakes.a.requests.length + fakes.b.requests.length + fakes.c.requests.length).toBe(0);
  });

  test("unknown id, another account's idea and a display number are 404; a non-numeric id is 400", async () => {
    const { u } = await proWithKey();
    const other = await makeUser(t, { plan: "pro" });
    const theirs = await createIdea(other, { title: "Not yours" });
    expect(await develop(u, theirs.id)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    expect(await develop(u, 987654)).toMatchObject({ status: 404, body: { error: "Idea not found" } });
    const mine = await createIdea(u, { title: "Mine" });
    expect(mine.number).not.toBe(mine.id);
    expect((await develop(u, mine.number)).status).toBe(404);
    for (const bad of ["abc", "1.5", "12x"]) expect(await develop(u, bad)).toMatchObject({ status: 400, body: { error: "Invalid idea ID" } });
    expect(fakes.a.requests.length).toBe(0);
  });

  test("a rejected key: 502 {error:<provider message>, provider}", async () => {
    const u = await makeUser(t, { plan: "pro" });
    await call(t, "PUT", "/user/byok/provider_a", { key: u.key, body: { api_key: fakeKey() } });
    const idea = await createIdea(u, { title: "Bad key" });
    const r = await develop(u, idea.id);
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ error: expect.stringContaining("invalid x-api-key"), provider: "provider_a" });
  });

  test("a provider that echoes the key in its error: the key appears in neither the answer nor the logs", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const apiKey = fakeKey("sk-proj");
    await call(t, "PUT", "/user/byok/provider_b", { key: u.key, body: { api_key: apiKey } });
    const idea = await createIdea(u, { title: "Echo" });
    const r = await develop(u, idea.id);
    expect(fakes.b.lastReply.error.message).toContain(apiKey);
    expect(r.status).toBe(502);
    expect(r.body.provider).toBe("provider_b");
    expect(r.body.error).toContain("Incorrect API key provided: [redacted]");
    expect(r.text).not.toContain(apiKey);
    expect(logs.join("\n")).not.toContain(apiKey);
    expect(logs.some((l) => l.includes("develop provider call failed"))).toBe(true);
  });

  test("provider 5xx, malformed and empty answers are 502 with a message", async () => {
    const { u } = await proWithKey();
    const idea = await createIdea(u, { title: "Flaky" });
    const cases: Array<[() => Response, RegExp]> = [
      [() => Response.json({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, { status: 529 }), /HTTP 529.*Overloaded/],
      [() => new Response("<html>Bad Gateway</html>", { status: 502 }), /HTTP 502/],
      [() => new Response("not json at all", { status: 200 }), /not JSON/],
      [() => Response.json({ id: "msg_1", type: "message" }), /unexpected response/],
      [() => Response.json({ type: "message", content: [{ type: "text", text: "   " }], usage: { input_tokens: 1, output_tokens: 0 } }), /empty answer/],
      [() => Response.json({ type: "message", content: [], stop_reason: "max_tokens", usage: { input_tokens: 9, output_tokens: 4096 } }), /empty answer \(stop reason: max_tokens\)/],
    ];
    for (const [reply, message] of cases) {
      fakes.a.override = reply;
      const r = await develop(u, idea.id);
      expect(r.status).toBe(502);
      expect(r.body.provider).toBe("provider_a");
      expect(r.body.error).toMatch(message);
    }
  });

  test("a provider that never answers is cut off at provider_timeout_ms with 502", async () => {
    const { u } = await proWithKey();
    const idea = await createIdea(u, { title: "Slow" });
    fakes.a.override = () => hang();
    const started = performance.now();
    const r = await develop(u, idea.id);
    const elapsed = performance.now() - started;
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ error: expect.stringMatching(/did not answer within 1 s/), provider: "provider_a" });
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(5000);
  });

  test("an MCP token without ideas:write gets the scope error", async () => {
    const { u } = await proWithKey();
    const idea = await createIdea(u, { title: "Scoped" });
    const token = await createApiKeysService(t.deps).mint(u.id, "MCP (test)", "ideas:read", "mcp");
    const r = await call(t, "POST", `/ideas/${idea.id}/develop`, { key: token.key });
    expect(r).toMatchObject({ status: 403, body: { error: "Insufficient scope: requires ideas:write" } });
  });
});
