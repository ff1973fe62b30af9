// `reindex`: re-embeds every idea and tag with the configured model in the foreground, with a progress bar, and
// switches searches to the new vectors when complete. Safe while the server runs (both write the same rows).
import { parseArgs, rejectUnknown } from "./args";
import { cliDeps, printJson } from "./context";
import type { CliCommand } from "./command";
import { toStamp } from "../lib/time";
import { embeddingsHealth } from "../pipeline/health";
import { startModelSet } from "../pipeline/models";
import { createRunner } from "../pipeline/runner";
import { countMissing, readState, targetGeneration } from "../vectors/generations";

const BAR_WIDTH = 30;

export function progressLine(done: number, total: number, perSecond: number): string {
  const ratio = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(ratio * BAR_WIDTH);
  const rate = perSecond > 0 ? `  ${perSecond.toFixed(0)}/s` : "";
  return `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${done}/${total} (${Math.floor(ratio * 100)}%)${rate}`;
}

export const reindexCommand: CliCommand = {
  async run(argv) {
    const p = parseArgs(argv, ["force", "status"]);
    rejectUnknown(p, ["force", "status"]);
    const deps = await cliDeps();
    try {
      if (p.flags.status) {
        printJson((await embeddingsHealth(deps.store)).embeddings);
        return;
      }
      const { models, state } = await startModelSet(deps.config, deps.store, toStamp(deps.clock()), deps.log, { force: !!p.flags.force });
      try {
        const target = targetGeneration(state)!;
        const missing = async () => {
          const m = await countMissing(deps.store, target.gen);
          return m.ideas + m.tags;
        };
        const total = await missing();
        const out = process.stderr;
        if (total === 0 && !state.building) {
          out.write(`Embeddings are up to date (${target.model_id}).\n`);
          return;
        }
        out.write(`Re-embedding ${total} ideas and tags with ${target.model_id}` + (state.active && state.building ? ` (searches use ${state.active.model_id} until done)` : "") + "\n");
        const started = Date.now();
        let lastLine = 0;
        const draw = async (final = false) => {
          const done = total - (await missing());
          const rate = done / Math.max(0.001, (Date.now() - started) / 1000);
          if (out.isTTY) out.write(`\r${progressLine(done, total, rate)}${final ? "\n" : ""}`);
          else if (final || Date.now() - lastLine > 2000) {
            lastLine = Date.now();
            out.write(progressLine(done, total, rate) + "\n");
          }
        };
        // A failed count only skips one redraw of the progress line.
        const timer = setInterval(() => void draw().catch(() => {}), 250);
        try {
          await createRunner(deps, models, { jobs: false }).drain();
        } finally {
          clearInterval(timer);
        }
        await draw(true);
        const after = await readState(deps.store);
        out.write(
          after.building
            ? `Not finished: ${await missing()} items could not be embedded (see the log); run reindex again.\n`
            : `Done: searches now use ${after.active?.model_id}.\n`,
        );
      } finally {
        await models.close();
      }
    } finally {
      await deps.store.close();
    }
  },
};
