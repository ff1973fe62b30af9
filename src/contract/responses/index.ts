// The response models: every route declares its answers from these (response:, status by status), the OpenAPI
// document's schemas are derived from them and the web app takes its types from them (`import type` only, so the
// bundle never carries TypeBox). Not re-exported by src/contract/index.ts for that reason.
export * from "./common";
export * from "./ideas";
export * from "./organise";
export * from "./account";
export * from "./vault";
export * from "./admin";
export * from "./agent";
export * from "./transfer";
export * from "./meta";
