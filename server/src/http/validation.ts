import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { declaredQueryKeys } from './query-keys.js';
import { STORABLE_TEXT, unstorableTextMessage } from './validators.js';

/** Maps a JSON-schema keyword to the code partners see in `errors`. */
const CODE_BY_KEYWORD: Record<string, string> = {
  required: 'required',
  type: 'invalidType',
  format: 'invalidFormat',
  pattern: 'invalidFormat',
  enum: 'invalidValue',
  const: 'invalidValue',
  anyOf: 'invalidValue',
  oneOf: 'invalidValue',
  minimum: 'tooSmall',
  exclusiveMinimum: 'tooSmall',
  maximum: 'tooLarge',
  exclusiveMaximum: 'tooLarge',
  minLength: 'tooShort',
  maxLength: 'tooLong',
  minItems: 'empty',
  maxItems: 'tooMany',
  uniqueItems: 'duplicate',
  additionalProperties: 'notAllowed',
  minProperties: 'empty',
  [STORABLE_TEXT]: 'invalidCharacter',
};

/**
 * What each pattern of the schemas asks for, in words: a 400 that quotes a regular expression helps no one at a
 * counter. Keyed by the pattern's source; a pattern not listed is quoted as it is.
 */
const PATTERN_NAMES: Record<string, string> = {
  '\\S': 'must not be blank',
  '^\\d{1,20}(\\.\\d{1,18})?$':
    'must be a decimal number such as 0.95, with at most 20 digits before the point and 18 after',
  '^-?\\d{1,20}(\\.\\d{1,18})?$':
    'must be a decimal number such as -1.5 or 0.95, with at most 20 digits before the point and 18 after',
  '^\\d{4}-\\d{2}-\\d{2}$': 'must be a calendar date as YYYY-MM-DD, such as 2026-12-01',
  '^([01]\\d|2[0-3]):[0-5]\\d$': 'must be a time of day as HH:MM, such as 09:30',
  '^(https?://\\S+)?$': 'must be an http or https link, or empty',
  '^(\\+?\\(?\\d[\\d ().-]{3,48})?$':
    'must be a phone number (digits, spaces, brackets, dots and hyphens, optionally after +, such as +351 21 123 4567), or empty',
  '^[A-Z0-9]{2,10}$': 'must be 2 to 10 capital letters or digits, such as USD or USDT',
  '^[\\x20-\\x7e]+$': 'must contain printable ASCII characters only',
  '^[A-Za-z0-9-]+$': 'must contain letters, digits and hyphens only',
  '^[A-Za-z0-9]+$': 'must contain letters and digits only, such as USD or USDT',
  '^[A-Za-z.]+$': 'must contain letters and dots only, such as offer.update',
};

const FORMAT_NAMES: Record<string, string> = {
  uri: 'a URL',
  email: 'an email address',
  'date-time': 'an ISO 8601 date-time',
  uuid: 'a UUID',
};

export interface ValidationProblem {
  field: string;
  code: string;
  message: string;
}

/** Turns Ajv errors into one readable message per problem, naming the field as the partner wrote it. */
export function describeValidationErrors(errors: FastifySchemaValidationError[], context: string): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const params = e.params as AjvParams;
    const path = e.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    let field = path;
    if (e.keyword === 'required') field = join(path, String(params.missingProperty));
    if (e.keyword === 'additionalProperties') field = join(path, String(params.additionalProperty));
    if (!field) field = context;
    if (seen.has(field)) continue;
    seen.add(field);
    const message =
      context === 'querystring' && e.keyword === 'additionalProperties' && !path
        ? unknownQueryParameter(field, (e as { parentSchema?: unknown }).parentSchema)
        : sentence(field, e.keyword, params, e.message);
    problems.push({ field, code: CODE_BY_KEYWORD[e.keyword] ?? 'invalid', message });
  }
  return problems;
}

function unknownQueryParameter(name: string, schema: unknown): string {
  const declared = declaredQueryKeys(schema);
  return declared.length === 0
    ? `query parameter ${name} is not supported; this operation takes no query parameters`
    : `query parameter ${name} is not supported; use one of: ${declared.join(', ')}`;
}

function join(path: string, leaf: string): string {
  return path ? `${path}.${leaf}` : leaf;
}

/** Ajv's `params` for the keywords worded below: its types leave them open. */
type AjvParams = Record<string, unknown> & { format?: string; pattern?: string; limit?: number };

function sentence(field: string, keyword: string, params: AjvParams, fallback = 'is invalid'): string {
  switch (keyword) {
    case 'required':
      return `${field} is required`;
    case 'additionalProperties':
      return `${field} is not allowed`;
    case 'type':
      return `${field} must be ${article(String(params.type))}`;
    case 'format':
      return `${field} must be ${FORMAT_NAMES[String(params.format)] ?? `a valid ${params.format}`}`;
    case 'pattern':
      return `${field} ${PATTERN_NAMES[String(params.pattern)] ?? `must match pattern "${params.pattern}"`}`;
    case 'enum':
      return `${field} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minItems':
      return Number(params.limit) === 1
        ? `${field} should not be empty`
        : `${field} must contain at least ${params.limit} items`;
    case 'maxItems':
      return `${field} must contain at most ${params.limit} items`;
    case 'minLength':
      return Number(params.limit) === 1
        ? `${field} should not be empty`
        : `${field} must be at least ${params.limit} characters long`;
    case 'maxLength':
      return `${field} must be at most ${params.limit} characters long`;
    case 'minimum':
      return `${field} must not be less than ${params.limit}`;
    case 'maximum':
      return `${field} must not be greater than ${params.limit}`;
    case 'exclusiveMinimum':
      return `${field} must be greater than ${params.limit}`;
    case 'exclusiveMaximum':
      return `${field} must be less than ${params.limit}`;
    case 'uniqueItems':
      return `${field} must not contain duplicates`;
    case 'minProperties':
      return `${field} must contain at least one field`;
    case STORABLE_TEXT:
      return unstorableTextMessage(field);
    default:
      return `${field} ${fallback}`;
  }
}

function article(type: string): string {
  const name = type.replace(',', ' or ');
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}
