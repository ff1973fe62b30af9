// Where a compiled binary writes native libraries (<data_dir>/.native); set by src/compiled/entry.ts, null from a checkout.
//
// The main thread knows the data dir; the model worker, which loads onnxruntime, learns it from the init request.
let dir: string | null = null;

export function setNativeDir(path: string | null): void {
  dir = path;
}

export function nativeDir(): string | null {
  return dir;
}
