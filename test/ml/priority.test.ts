// The model client's two lanes: a call a person waits on jumps the background requests queued before it, background
// work still gets a turn during a stream of them, and a crash fails what is owed in both lanes. Orders, not timings:
// the client sends one request at a time, so the order in which calls resolve is the order they ran in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cosine, startModels, type ModelClient, type Priority } from "../../src/ml/client";
import { MAX_INTERACTIVE_RUN } from "../../src/ml/lanes";

let model: ModelClient;
beforeAll(async () => {
  model = await startModels({ modelsDir: "/nonexistent-models-dir", embedModel: "use-lite", rerankModel: null });
});
afterAll(() => model?.close());

/** Starts the calls in this order, in one tick, and returns the labels in the order their promises settled. */
async function settleOrder(calls: [label: string, priority: Priority, texts: string[]][]): Promise<string[]> {
  const order: string[] = [];
  await Promise.allSettled(calls.map(([label, priority, texts]) => model.embed(texts, { priority }).finally(() => order.push(label))));
  return order;
}

const texts = (label: string, n = 4) => Array.from({ length: n }, (_, i) => `${label}: a community garden with raised beds, plot ${i}`);

describe("model client priority", () => {
  test("an interactive call runs right after the request in progress, before background requests queued earlier", async () => {
    // "running" is sent at once; the others queue behind it in the order given.
    const order = await settleOrder([
      ["running", "background", texts("running")],
      ["queued 1", "background", texts("queued 1")],
      ["queued 2", "background", texts("queued 2")],
      ["query", "interactive", ["garden plots near me"]],
    ]);
    expect(order).toEqual(["running", "query", "queued 1", "queued 2"]);
  });

  test("a background call's later chunks also wait for the interactive call", async () => {
    // 40 texts are more than one background request: the query goes in after the first chunk, not after all of them.
    const order = await settleOrder([
      ["import", "background", texts("import", 40)],
      ["query", "interactive", ["garden plots near me"]],
    ]);
    expect(order).toEqual(["query", "import"]);
  });

  test("a background request waiting behind a stream of interactive ones still gets its turn", async () => {
    const queries: [string, Priority, string[]][] = Array.from({ length: MAX_INTERACTIVE_RUN + 6 }, (_, i) => [`q${i}`, "interactive", [`query number ${i}`]]);
    const order = await settleOrder([["running", "background", texts("running")], ["waiting", "background", texts("waiting")], ...queries]);
    // After the running request: MAX_INTERACTIVE_RUN queries, then the waiting background request, then the rest.
    expect(order.indexOf("waiting"), order.join(", ")).toBe(1 + MAX_INTERACTIVE_RUN);
    expect(order).toHaveLength(queries.length + 2);
  });

  test("interactive and background calls return the same vectors", async () => {
    const text = "Borrow tools from a neighbourhood library";
    const [[a], [b]] = await Promise.all([model.embed([text], { priority: "interactive" }), model.embed([text, "another text"], { priority: "background" })]);
    expect(cosine(a, b)).toBeGreaterThan(0.9999);
  });

  test("a crash fails the calls owed in both lanes, and the next call restarts the worker", async () => {
    const crashing = (model as unknown as { crashForTest(): Promise<unknown> }).crashForTest();
    const calls = [model.embed(texts("background behind the crash")), model.embed(["query behind the crash"], { priority: "interactive" })];
    const settled = await Promise.allSettled([crashing, ...calls]);
    for (const s of settled) expect(s.status === "rejected" && String(s.reason)).toContain("model worker crashed");
    const [after] = await model.embed(["A man is playing a guitar."], { priority: "interactive" });
    expect(after.length).toBe(512);
  });
});
