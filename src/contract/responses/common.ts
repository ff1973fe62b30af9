// Building blocks of the response models: JSON types as the API writes them, and the spec's error bodies.
//
// Every object is open (additionalProperties: true, said explicitly): clients ignore fields they do not know, and an
// object without the keyword would be closed by Elysia, which then strips undeclared fields from the answer. The
// contract test closes them to find any field a route answers but its model does not declare.
import { Type, type Static, type TProperties, type TSchema } from "@sinclair/typebox";
import { IDEA_STATUSES, LINK_TYPES, PROVIDERS, RELATION_CREATORS, RELATION_TYPES, type IdeaStatus, type LinkType, type Provider, type RelationCreator, type RelationType } from "../vocabularies";

export const Int = Type.Integer();
export const Num = Type.Number();
export const Str = Type.String();
export const Bool = Type.Boolean();
/** A stored timestamp: UTC, `YYYY-MM-DD HH:MM:SS`. */
export const Stamp = Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$", description: "UTC, `YYYY-MM-DD HH:MM:SS`" });

export const nullable = <T extends TSchema>(s: T) => Type.Union([s, Type.Null()]);
export const list = <T extends TSchema>(s: T) => Type.Array(s);
/** An open object whose every property is required unless wrapped in Type.Optional. */
export const obj = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });

/**
 * A string from a closed vocabulary: the schema lists the values (enum), the type is the vocabulary's union. A TypeBox
 * String underneath, so that Elysia's compiler knows it.
 */
const oneOf = <V extends string>(values: readonly V[]) => Type.Unsafe<V>(Type.String({ enum: [...values] }));
export const IdeaStatusField = oneOf<IdeaStatus>(IDEA_STATUSES);
export const RelationTypeField = oneOf<RelationType>(RELATION_TYPES);
export const RelationCreatorField = oneOf<RelationCreator>(RELATION_CREATORS);
export const LinkTypeField = oneOf<LinkType>(LINK_TYPES);
export const ProviderField = oneOf<Provider>(PROVIDERS);
export const literalOf = <V extends string>(...values: V[]) => oneOf<V>(values);

export const Success = obj({ success: Type.Literal(true) });
export type Success = Static<typeof Success>;

// The spec's error bodies. $id names the document's shared schema (components/schemas) each one becomes.
export const ErrorBody = Type.Object({ error: Str }, { $id: "Error", additionalProperties: true });
export const ValidationErrorBody = Type.Object(
  { error: Type.Union([Str, Type.Record(Str, list(Str))]) },
  { $id: "ValidationError", additionalProperties: true, description: "`{error:{<field>:[<message>]}}` for field problems, `{error:<string>}` otherwise." },
);
export const PlanGateBody = Type.Object(
  {
    error: Str,
    pro_required: Type.Optional(Bool),
    feature: Type.Optional(Str),
    upgrade_url: Type.Optional(Str),
    message: Type.Optional(Str),
    currentCount: Type.Optional(Int),
    limit: Type.Optional(Int),
    upgradeUrl: Type.Optional(Str),
    featureRequestUrl: Type.Optional(Str),
  },
  {
    $id: "PlanGate",
    additionalProperties: true,
    description: "Scope errors carry only `error`; Pro gates add pro_required, feature and upgrade_url; the Free plan's idea cap is `idea_limit_reached` with message, currentCount, limit, upgradeUrl and featureRequestUrl.",
  },
);
/** The shared error schemas, by the name the document gives them. */
export const ERROR_BODIES = [ErrorBody, ValidationErrorBody, PlanGateBody] as const;

/** What the authentication plugin answers on any route behind it: no credential, a missing scope or plan, the quota. */
export const AUTH_ERRORS = { 401: ErrorBody, 403: PlanGateBody, 429: ErrorBody } as const;
/** A route that reads input: what it refuses (400) besides the plugin's answers. */
export const REFUSED = { 400: ValidationErrorBody, ...AUTH_ERRORS } as const;
/** A route about one resource named in its path: also 404 when it is absent or another account's. */
export const REFUSED_BY_ID = { ...REFUSED, 404: ErrorBody } as const;
