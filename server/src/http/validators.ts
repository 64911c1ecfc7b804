import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const BASE: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

/**
 * Text PostgreSQL (and PGlite) cannot store: the NUL character, which it refuses outright, and UTF-16 surrogates
 * without their pair, which have no UTF-8 encoding. Both arrive through JSON escapes (`"\u0000"`, `"\ud800"`).
 */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters it finds, as said above
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * A date-time that is an instant PostgreSQL stores and JavaScript prints back: ajv's `date-time` allows second 60
 * (no Date parses it) and any year, but PostgreSQL has no year 0 and JavaScript writes a year past 9999 in a form
 * PostgreSQL refuses. Years 1 to 9999, counted in UTC, as an offset can move the instant across a year's edge.
 */
export function isStorableInstant(text: string): boolean {
  const time = Date.parse(text);
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
}

/** What a 400 says of text that is not storable, wherever it arrived. */
export function unstorableTextMessage(field: string): string {
  return `${field} must not contain NUL (\\u0000) or unpaired surrogate characters`;
}

/** The keyword every string schema is given when compiled; validation.ts names the field in the 400. */
export const STORABLE_TEXT = 'storableText';

function withStorableText(ajv: Ajv): Ajv {
  const dateTime = ajv.formats['date-time'] as { validate: (text: string) => boolean } | ((text: string) => boolean);
  const isDateTime = typeof dateTime === 'function' ? dateTime : dateTime.validate;
  ajv.addFormat('date-time', {
    type: 'string',
    validate: (text: string) => isDateTime(text) && isStorableInstant(text),
  });
  ajv.addKeyword({
    keyword: STORABLE_TEXT,
    type: 'string',
    schemaType: 'boolean',
    errors: false,
    validate: (on: boolean, data: string) => !on || isStorableText(data),
  });
  return ajv;
}

/**
 * Adds `storableText` to every string schema of a request part, on a copy: the one rule lives here instead of
 * in each feature's schemas, and the OpenAPI document (built from the originals) does not show it.
 */
export function requireStorableText(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(requireStorableText);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (LITERALS.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([name, s]) => [name, requireStorableText(s)]),
      );
    } else out[key] = requireStorableText(value);
  }
  const type = out.type;
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) out[STORABLE_TEXT] = true;
  return out;
}

/** Keywords whose values are data, not schemas. */
const LITERALS = new Set(['enum', 'const', 'default', 'examples', 'required']);
/** Keywords whose values map names (which may be `type` or `enum`) to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/**
 * Query strings and path parameters arrive as text, so they are coerced to the declared types; JSON bodies are
 * not: `"firstName": 42` or `"amount": "100"` is a 400, never silently converted.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = withStorableText(addFormats.default(new Ajv({ ...BASE, coerceTypes: false })));
  // verbose: an undeclared query parameter's 400 lists the declared ones (validation.ts), read from the error's schema.
  const coercing = withStorableText(addFormats.default(new Ajv({ ...BASE, coerceTypes: 'array', verbose: true })));
  return ({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(requireStorableText(schema) as object);
}
