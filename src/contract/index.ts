// THE CONTRACT: vocabularies, limits, character counting and settings ranges, declared once (the response models are
// in ./responses, which this file leaves out so that the web app's bundle never carries TypeBox).
// The route models, the export/import schemas, the OpenAPI document and the web app import them from here. It
// imports nothing outside this folder, so the web app can bundle it; test/foundation/contract.test.ts keeps it so,
// and keeps the web app from importing anything else of the server (types excepted: `import type` is erased).
export * from "./vocabularies";
export * from "./limits";
export * from "./text";
export * from "./settings";
export * from "./capture-settings";
export * from "./wikilinks";
