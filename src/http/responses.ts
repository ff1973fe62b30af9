// A route's answers as it declares them: `response: responses({ 200: IdeaList, 400: ValidationErrorBody, ...AUTH_ERRORS })`.
//
// The models (src/contract/responses/) are the contract: the OpenAPI document and the web app's types come from them,
// and Elysia types each handler's return against them. They are not checked on every answer in production: Elysia
// would compile a check and a copy per status into the handler, which costs CPU on hot routes (GET /ideas sends kept
// JSON text, docs/performance.md has the figures), and a model a little off would turn a good answer into a 422.
// test/openapi/contract.test.ts checks real answers against the models instead, with every object closed.
import type { TSchema } from "@sinclair/typebox";

export function responses<R extends Record<number, TSchema>>(map: R): R {
  const out: Record<number, TSchema> = {};
  // noValidate: Elysia skips its check; the objects being open, its normaliser leaves the answer as it is.
  for (const [status, schema] of Object.entries(map)) out[Number(status)] = { ...schema, noValidate: true };
  return out as R;
}
