import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

const BASE: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false };

/**
 * Query strings and path parameters arrive as text, so they are coerced to the declared types; JSON bodies are
 * not: `"firstName": 42` or `"amount": "100"` is a 400, never silently converted.
 */
export function validatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = addFormats.default(new Ajv({ ...BASE, coerceTypes: false }));
  const coercing = addFormats.default(new Ajv({ ...BASE, coerceTypes: 'array' }));
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
