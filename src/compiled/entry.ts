// Entry point of the compiled binary: puts embedded native libraries on disk, then runs the ordinary CLI (src/main.ts).
import { join } from "node:path";
import { loadConfig } from "../config";
import { setVecExtensionPath } from "../db/open";
import { setNativeDir } from "../ml/native-dir";
import { extractLibrary } from "./native";
// Resolved by the build's plugin (scripts/build.ts) to this platform's sqlite-vec library, embedded as a file.
import vec0 from "idearepo-embedded:sqlite-vec" with { type: "file" };
// The web app, bundled at build time: the binary serves it without running the bundler.
import webApp from "idearepo-embedded:web-app";
import { setEmbeddedWebApp } from "../modules/web/assets";

const NO_DATABASE = new Set([undefined, "help", "--help", "-h", "health"]);

async function prepareNativeLibraries(command: string | undefined): Promise<void> {
  if (NO_DATABASE.has(command)) return;
  let dataDir: string;
  try {
    dataDir = loadConfig().data_dir;
  } catch {
    return; // main() reports the configuration error in its usual one-line form
  }
  const bytes = await Bun.file(vec0).bytes();
  // The embedded copy's name is hashed by the bundler; SQLite needs the original stem for the init symbol.
  const name = `vec0${vec0.slice(vec0.lastIndexOf("."))}`;
  setVecExtensionPath(extractLibrary(bytes, join(dataDir, ".native"), name).path);
  // onnxruntime is written out only when an ONNX model loads, by the model worker (src/compiled/onnxruntime.ts).
  setNativeDir(join(dataDir, ".native"));
}

setEmbeddedWebApp(webApp);
await prepareNativeLibraries(process.argv[2]);
await import("../main");
