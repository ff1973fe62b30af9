// Virtual modules the build plugin (scripts/build.ts) resolves to real files; a file import yields its path.
declare module "idearepo-embedded:*" {
  const path: string;
  export default path;
}

declare module "idearepo-embedded:onnxruntime-meta" {
  /** hash: over onnxruntime's library and binding, computed by the build; library: the library's file name. */
  const meta: { hash: string; library: string };
  export default meta;
}
