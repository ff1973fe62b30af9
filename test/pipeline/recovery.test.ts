// Recovery: an idea whose queue write was lost is picked up by the hourly job; jobs a dead process had claimed run
// again after a restart; the job is on the scheduler's hourly list.
import { describe, expect, test } from "bun:test";
import { Cron } from "croner";
import { hostname } from "node:os";
import { SCHEDULED_JOBS } from "../../src/jobs/scheduler";
import { createPipelineProcess } from "../../src/pipeline/process";
import { call, makeUser } from "../helpers";
import { capture, usePipelineApp } from "../pipeline-helpers";

const { t, model } = usePipelineApp();

const recovery = SCHEDULED_JOBS.find((j) => j.name === "pipeline-recovery")!;
const vectorizeId = async (key: string, id: number) => (await call(t, "GET", `/ideas/${id}`, { key })).body.vectorize_id;

describe("recovery job", () => {
  test("runs hourly", () => {
    expect(recovery).toBeDefined();
    const runs = new Cron(recovery.pattern as string).nextRuns(3, new Date("2030-01-01T00:00:00Z"));
    expect(runs[1].getTime() - runs[0].getTime()).toBe(3_600_000);
    expect(runs[2].getTime() - runs[1].getTime()).toBe(3_600_000);
  });

  test("re-queues an idea whose queue write was lost", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await capture(t, u, { title: "Solar powered bike lights" });
    // The spec's failure case: the idea is stored but its job never made it to the queue.
    await t.deps.store.query("DELETE FROM jobs WHERE idea_id = ?").run(id);
    await t.drain();
    expect(await vectorizeId(u.key, id)).toBeNull();
    await recovery.run(t.deps);
    await t.drain();
    expect(await vectorizeId(u.key, id)).toEqual(expect.any(String));
    // Nothing left for it to do: a second run queues nothing.
    await recovery.run(t.deps);
    expect(await t.deps.store.query("SELECT count(*) AS n FROM jobs").get()).toEqual({ n: 0 });
  });

  test("jobs claimed by a process that died are released when the service starts again", async () => {
    const u = await makeUser(t, { plan: "pro" });
    const id = await capture(t, u, { title: "Roof garden with rain barrels" });
    await t.service.stop();
    // What a worker of this host killed mid-batch leaves: its claim, with a lease that has long to run.
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    await t.deps.store
      .query("UPDATE jobs SET locked_at = '2020-01-01 00:00:00', locked_by = ?, lease_until = '2099-01-01 00:00:00', attempts = 1 WHERE idea_id = ?")
      .run(`${hostname()}:${dead.pid}:0dead0`, id);
    expect(await vectorizeId(u.key, id)).toBeNull();
    const restarted = createPipelineProcess(t.deps, { models: model, autoStart: false });
    await restarted.start(t.deps);
    await restarted.runner()!.drain();
    expect(await vectorizeId(u.key, id)).toEqual(expect.any(String));
    t.service = restarted;
  });
});
