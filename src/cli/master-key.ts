// `master-key` operator command: rotate the key that seals provider keys, or show what it can open.
import type { CliCommand } from "./command";
import { cliDeps, printJson } from "./context";
import { parseArgs, rejectUnknown, UsageError } from "./args";
import { parseMasterKey } from "../lib/secret-box";
import { inspectSealedKeys, rotateMasterKey } from "../modules/byok/rotate";

async function readStdin(): Promise<string> {
  return (await new Response(Bun.stdin.stream()).text()).trim();
}

async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const p = parseArgs(rest, ["new-key-stdin", "drop-unreadable"]);
  if (sub !== "rotate" && sub !== "status") throw new UsageError(`Unknown master-key command "${sub ?? ""}". Use: rotate, status`);
  rejectUnknown(p, sub === "rotate" ? ["new-key-stdin", "drop-unreadable"] : []);
  let newKey: Buffer | undefined;
  if (p.flags["new-key-stdin"]) {
    try {
      newKey = parseMasterKey(await readStdin());
    } catch (e) {
      throw new UsageError(`--new-key-stdin: ${(e as Error).message}`);
    }
  }
  const deps = await cliDeps();
  try {
    if (sub === "status") {
      printJson(await inspectSealedKeys(deps));
      return;
    }
    const result = await rotateMasterKey(deps, { newKey, dropUnreadable: p.flags["drop-unreadable"] === true });
    printJson(
      result.source === "config"
        ? { ...result, next_step: "Set master_key / IDEAREPO_MASTER_KEY to the new key before starting the server again" }
        : result,
    );
  } finally {
    await deps.store.close();
  }
}

export const masterKeyCommand: CliCommand = {
  run,
};
