// `models pull NAME [--base-url URL]` fetches an ONNX model into the models folder (resuming an interrupted pull);
// `models list` shows what is there.
import { parseArgs, rejectUnknown, optionalFlag, UsageError } from "./args";
import { printJson } from "./context";
import type { CliCommand } from "./command";
import { loadConfig } from "../config";
import { listModels, pullModel } from "../ml/pull";

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

async function pull(argv: string[]): Promise<void> {
  const p = parseArgs(argv);
  rejectUnknown(p, ["base-url"]);
  const [name, extra] = p.positionals;
  if (!name || extra) throw new UsageError("usage: models pull NAME [--base-url URL]   (NAME as on the hub, e.g. Xenova/all-MiniLM-L6-v2)");
  const cfg = loadConfig();
  const baseUrl = optionalFlag(p, "base-url") ?? cfg.models_base_url;
  const err = process.stderr;
  let lastFile = "";
  let lastDraw = 0;
  let lastTenth = 0;
  try {
    const result = await pullModel({
      name,
      baseUrl,
      modelsDir: cfg.models_dir,
      // A redrawn line on a terminal; in a log (not a TTY), one line per file and per tenth of a big one.
      onProgress: (pr) => {
        const of = pr.size ? ` of ${mb(pr.size)}` : "";
        const line = `${pr.file}: ${mb(pr.received)}${of}${pr.resumedFrom ? ` (resumed at ${mb(pr.resumedFrom)})` : ""}`;
        const tenth = pr.size ? Math.floor((10 * pr.received) / pr.size) : 0;
        if (err.isTTY) {
          if (pr.file !== lastFile || pr.resumedFrom || Date.now() - lastDraw > 200) {
            err.write(`${pr.file !== lastFile && lastFile ? "\n" : "\r\x1b[K"}${line}`);
            lastDraw = Date.now();
          }
        } else if (pr.file !== lastFile || pr.resumedFrom || (pr.size && pr.size > 4_194_304 && tenth > lastTenth)) {
          err.write(`${line}\n`);
        }
        if (pr.file !== lastFile) lastTenth = 0;
        lastTenth = Math.max(lastTenth, tenth);
        lastFile = pr.file;
      },
    });
    if (err.isTTY) err.write("\n");
    const resumed = result.resumedBytes > 0 ? `, ${mb(result.resumedBytes)} of it kept from an interrupted download` : "";
    err.write(`Pulled ${result.name} (${mb(result.bytes)}${resumed}) into ${result.dir}\n`);
    printJson({ name: result.name, dir: result.dir, bytes: result.bytes, resumed_bytes: result.resumedBytes, files: result.files });
  } catch (e) {
    if (err.isTTY) err.write("\n");
    throw new UsageError(`models pull ${name} from ${baseUrl} failed: ${(e as Error).message}`);
  }
}

export const modelsCommand: CliCommand = {
  async run(argv) {
    const [sub, ...rest] = argv;
    if (sub === "pull") return pull(rest);
    if (sub === "list") {
      rejectUnknown(parseArgs(rest), []);
      const cfg = loadConfig();
      printJson({ models_dir: cfg.models_dir, embed_model: cfg.embed_model, rerank_model: cfg.rerank_model, models: listModels(cfg.models_dir) });
      return;
    }
    throw new UsageError("usage: models pull NAME [--base-url URL] | models list");
  },
};
