// Entry point of the compiled binary: puts embedded native libraries on disk for the commands that open the data
// dir, points `serve` at the embedded web app, then runs the ordinary CLI (src/main.ts). Everything but the command
// table is imported on demand, so a client command (`health`, `capture`, `--help`) loads no database layer.
import { join } from "node:path";
import { commandNamed } from "../cli/commands";
// Resolved by the build's plugin (scripts/build.ts) to this platform's sqlite-vec library, embedded as a file.
import vec0 from "idearepo-embedded:sqlite-vec" with { type: "file" };
// The web app, bundled at build time into one JSON file: read by the server on its first page, never by the CLI.
import webApp from "idearepo-embedded:web-app" with { type: "file" };

async function prepareNativeLibraries(): Promise<void> {
  const { loadConfig } = await import("../config");
  let dataDir: string;
  try {
    dataDir = loadConfig().data_dir;
  } catch {
    return; // main() reports the configuration error in its usual one-line form
  }
  const [{ setVecExtensionPath }, { setNativeDir }, { extractLibrary }] = await Promise.all([
    import("../db/open"),
    import("../ml/native-dir"),
    import("./native"),
  ]);
  const bytes = await Bun.file(vec0).bytes();
  // The embedded copy's name is hashed by the bundler; SQLite needs the original stem for the init symbol.
  const name = `vec0${vec0.slice(vec0.lastIndexOf("."))}`;
  setVecExtensionPath(extractLibrary(bytes, join(dataDir, ".native"), name).path);
  // onnxruntime is written out only when an ONNX model loads, by the model worker (src/compiled/onnxruntime.ts).
  setNativeDir(join(dataDir, ".native"));
}

const command = process.argv[2];
if (commandNamed(command)?.dataDir) await prepareNativeLibraries();
if (command === "serve") {
  const { setEmbeddedWebApp } = await import("../modules/web/assets");
  setEmbeddedWebApp(async () => JSON.parse(await Bun.file(webApp).text()));
}
await import("../main");
