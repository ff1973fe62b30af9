// What the reference routes answer: the OpenAPI document (made from these models and the routes' own schemas) and
// its HTML page.
import { Type } from "@sinclair/typebox";
import { Str, list, obj } from "./common";

const Named = obj({ name: Str, description: Str });
/** GET /openapi.json: an OpenAPI 3.1 document; its paths and components follow the OpenAPI specification. */
export const OpenApiDocument = obj({
  openapi: Type.Literal("3.1.0"),
  info: obj({ title: Str, version: Str, license: obj({ name: Str, identifier: Str }), description: Str }),
  servers: list(obj({ url: Str })),
  tags: list(Named),
  paths: Type.Record(Str, Type.Record(Str, Type.Unknown()), { description: "Operations by path and method." }),
  components: obj({
    securitySchemes: Type.Record(Str, Type.Unknown()),
    schemas: Type.Record(Str, Type.Unknown()),
  }),
});
/** GET /docs: a self-contained HTML page rendered from the document. */
export const ReferencePage = Type.String({ contentMediaType: "text/html" });
