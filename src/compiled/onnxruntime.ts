// onnxruntime's native side inside the compiled binary: scripts/build.ts routes onnxruntime-node's
// `require("../bin/napi-v6/<platform>/<arch>/onnxruntime_binding.node")` here. The binding and libonnxruntime are
// written under <data_dir>/.native/<build hash>/ on the first ONNX load (never for USE-lite setups) and reused.
import { join } from "node:path";
import binding from "idearepo-embedded:onnxruntime-binding" with { type: "file" };
import library from "idearepo-embedded:onnxruntime-library" with { type: "file" };
import meta from "idearepo-embedded:onnxruntime-meta";
import { nativeDir } from "../ml/native-dir";
import { extractLibrarySet } from "./native";

const BINDING_NAME = "onnxruntime_binding.node";

export function loadOrtBinding(): unknown {
  const base = nativeDir();
  if (!base) throw new Error("onnxruntime: the binary did not say where to write its native libraries (<data_dir>/.native)");
  process.env.ORT_DISABLE_TELEMETRY = "1";
  // The binding finds the library through its RUNPATH ($ORIGIN), so both go into one folder under their own names.
  const set = extractLibrarySet(
    [
      { name: meta.library, source: library },
      { name: BINDING_NAME, source: binding },
    ],
    base,
    meta.hash,
  );
  const module = { exports: {} as unknown };
  process.dlopen(module, join(set.dir, BINDING_NAME));
  return module.exports;
}
