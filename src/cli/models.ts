// `models pull NAME [--base-url URL]` fetches an ONNX model into the models folder; `models list` shows what is there.
import { parseArgs, rejectUnknown, optionalFlag, UsageError } from "./args";
import { printJson } from "./context";
import type { CliCommand } from "./commands";
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
  try {
    const result = await pullModel({
      name,
      baseUrl,
      modelsDir: cfg.models_dir,
      onProgress: (pr) => {
        if (pr.file !== lastFile || Date.now() - lastDraw > 500) {
          const of = pr.size ? ` of ${mb(pr.size)}` : "";
          const line = `${pr.file}: ${mb(pr.received)}${of}`;
          if (err.isTTY) err.write(`\r\x1b[K${line}`);
          else if (pr.file !== lastFile) err.write(`${pr.file}\n`);
          lastFile = pr.file;
          lastDraw = Date.now();
        }
      },
    });
    if (err.isTTY) err.write("\n");
    err.write(`Pulled ${result.name} (${mb(result.bytes)}) into ${result.dir}\n`);
    printJson({ name: result.name, dir: result.dir, bytes: result.bytes, files: result.files });
  } catch (e) {
    throw new UsageError(`models pull ${name} from ${baseUrl} failed: ${(e as Error).message}`);
  }
}

export const modelsCommand: CliCommand = {
  usage: "models pull NAME [--base-url URL] | models list     fetch an ONNX model into the models folder / list installed models",
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
