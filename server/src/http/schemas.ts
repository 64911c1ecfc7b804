import { Type, type Static, type TSchema, type TUnsafe } from 'typebox';

/*
 * Unions are written as JSON Schema type lists and enums, never as `Type.Union` (anyOf): fast-json-stringify
 * serializes an anyOf by running an Ajv validation on every value to pick the branch, and builds an Ajv
 * instance for every route that has one. The orders page made 180 such validations per request.
 */

/** `schema` or null: `type: [T, 'null']` (or the enum plus null). */
export function Nullable<T extends TSchema>(
  schema: T,
  options: Record<string, unknown> = {},
): TUnsafe<Static<T> | null> {
  const s = schema as unknown as Record<string, unknown>;
  if (typeof s.type !== 'string') throw new TypeError('Nullable() takes a schema with a single type');
  const nullable = { ...s, ...options, type: [s.type, 'null'] };
  return Type.Unsafe<Static<T> | null>(
    Array.isArray(s.enum) ? { ...nullable, enum: [...(s.enum as unknown[]), null] } : nullable,
  );
}

/** One of a fixed set of strings. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: Record<string, unknown> = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

/** Shapes shared by every feature. Each feature keeps its own resources in its schemas.ts. */
export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    message: Type.Optional(Type.Unsafe<string | string[]>({ type: ['string', 'array'], items: { type: 'string' } })),
    error: Type.Optional(Type.String()),
    errors: Type.Optional(Type.Record(Type.String(), Type.String())),
    retryAfter: Type.Optional(Type.Integer()),
  },
  { $id: 'Error', title: 'Error' },
);

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad Request: missing or invalid fields',
  401: 'Unauthorized: missing, invalid, expired or revoked credentials',
  403: 'Forbidden: valid credentials without the needed permission',
  404: "Not Found: the resource does not exist or is outside the caller's scope",
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity: a business rule refuses the operation',
  429: 'Too Many Requests: rate limit exceeded',
};

/** Declares the error responses a route can give, so they are serialized and documented alike. */
export function errorResponses(...codes: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const code of codes) out[code] = Type.Ref('Error', { description: ERROR_DESCRIPTIONS[code] ?? 'Error' });
  return out;
}

export const NoContent = Type.Null({ description: 'No Content' });

/** The largest value of an `integer` column: every id, and any offset into a list. */
export const INT4_MAX = 2147483647;
/** A row's id: a positive `integer`, so a larger number is refused (400) rather than failing in the database. */
export const RowId = (options: Parameters<typeof Type.Integer>[0] = {}) =>
  Type.Integer({ minimum: 1, maximum: INT4_MAX, ...options });

export const EntityRef = Type.Object({ id: RowId() }, { additionalProperties: false });

export const IdParams = Type.Object({ id: RowId() });
export const UuidParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Dates leave the database as Date objects; the serializer writes ISO 8601. */
export const DateTime = Type.Unsafe<Date | string>(Type.String({ format: 'date-time' }));
/** Exact decimals are kept as strings and written as JSON numbers with all their digits (http/exact-numbers.ts). */
export const Money = Type.Unsafe<number | string>(Type.Number());

export const ListQuery = Type.Object({
  skip: Type.Optional(
    Type.Integer({ minimum: 0, maximum: INT4_MAX, default: 0, description: 'Records to skip (default 0)' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Records to return, 1–100 (default 25)' }),
  ),
  filter: Type.Optional(
    Type.String({ maxLength: 2000, description: 'JSON object over the listed filter fields, e.g. {"isActive":true}' }),
  ),
  sort: Type.Optional(
    Type.String({ maxLength: 500, description: 'JSON array of [field, "ASC"|"DESC"] pairs (default [["id","ASC"]])' }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1000,
      description:
        'meta.nextCursor of the previous page (same filter and sort): the page after it; an alternative to skip',
    }),
  ),
});

export const ListMeta = Type.Object({
  total: Type.Integer({ description: 'All matches; a lower bound when totalCapped is true' }),
  totalCapped: Type.Optional(
    Type.Boolean({
      description: 'Present and true when the count stopped at 10,000 (a filter the service keeps no exact count for)',
    }),
  ),
  skip: Type.Integer(),
  limit: Type.Integer(),
  nextCursor: Nullable(Type.String(), { description: 'Pass as cursor to get the next page; null on the last page' }),
});

export function listEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), meta: ListMeta });
}

/** A preValidation hook for a body the caller may leave out: a POST with no body is validated as `{}`. */
export async function optionalBody(request: { body: unknown }): Promise<void> {
  request.body ??= {};
}
