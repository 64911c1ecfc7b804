import { OPTIONAL_BODY, SENDS, type Sends } from './response-headers.js';

/**
 * The answers every operation of a kind may give, written into the generated document here rather than into
 * each route's schema, where one forgotten route would make the document lie:
 * - 400 and 503 (with Retry-After) on every operation under /api/v1: each refuses a query parameter it does not
 *   take, and each may meet a database that cannot answer; elsewhere 400 where a path or query is validated;
 * - 413 and 415 wherever a body is read;
 * - on a partner operation (an API key), the rate-limit headers on every answer and Retry-After on its 429;
 * - X-Request-Id on every answer;
 * - refusals as JSON, also from an operation that `produces` something else (the order stream);
 * - 401 on every operation that takes credentials, and on a partner operation 403 (a public key outside the
 *   public endpoints, an Origin its key does not allow, a missing permission) and 429 (its key's rate limit);
 * - on an operation that takes Idempotency-Key: 409 (a repeat while the first runs), 422 (the key with another
 *   body) and Idempotent-Replayed on its success, and no 409 anywhere else;
 * - the headers a route's hooks add (ETag, Cache-Control, Vary: response-headers.ts) on the answers they add
 *   them to, and a body the route lets the caller leave out as not required.
 */
type Json = Record<string, unknown>;
/** The parts of the generated document read or written here. */
interface Response {
  description: string;
  content?: Record<string, unknown>;
  headers?: Json;
}
interface Operation {
  responses?: Record<string, Response>;
  parameters?: { in: string; name: string }[];
  requestBody?: { required?: boolean };
  security?: Json[];
  [SENDS]?: Sends;
  [OPTIONAL_BODY]?: boolean;
}
interface Document {
  components?: { headers?: Json };
  paths?: Record<string, Record<string, Operation>>;
}

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const COMMON: Record<string, string> = {
  400: 'Bad Request: a missing or invalid field or parameter, or a query parameter the operation does not take (`errors` names each)',
  413: 'Payload Too Large: the body is larger than the service accepts',
  415: 'Unsupported Media Type: the body is not JSON in UTF-8 sent as is',
  503: 'Service Unavailable: the database could not answer; retry after Retry-After seconds',
  401: 'Unauthorized: missing, invalid, expired or revoked credentials',
  403: 'Forbidden: valid credentials without the needed permission',
  429: 'Too Many Requests: rate limit exceeded',
};
const IDEMPOTENCY_CONFLICT =
  'Conflict: a request with the same Idempotency-Key is still being processed; retry after it has finished';
const IDEMPOTENCY_MISMATCH = ', or the Idempotency-Key was already used with another body';

const HEADERS: Json = {
  'X-Request-Id': {
    description:
      "The request's id: yours if you sent a valid X-Request-Id, else a new UUID; quote it when reporting a problem",
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window to this key (to this address, for a request without a valid key)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the current window ends, in Unix seconds', schema: { type: 'integer' } },
  RateLimit: {
    description: 'The same as an IETF RateLimit field: `"<policy>";r=<remaining>;t=<seconds to reset>`',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description: 'The policy as an IETF RateLimit-Policy field: `"<policy>";q=<limit>;w=<window seconds>`',
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
  ETag: {
    description:
      'A strong tag of the body: send it back as If-None-Match to get 304 and no body while it has not changed',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      '`private, no-cache` on a tagged read (the body depends on the key; ask again with If-None-Match); `no-store` on an answer that holds a secret shown once',
    schema: { type: 'string' },
  },
  Vary: {
    description: "`Origin`: the answer of a public endpoint depends on the page's Origin (its CORS headers)",
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored answer of an earlier request with the same Idempotency-Key (nothing was created again)',
    schema: { type: 'string', enum: ['true'] },
  },
};
const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function withCommonResponses<D extends object>(generated: D): D {
  const document = generated as Document;
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      const responses = (operation.responses ??= {});
      const add = (code: number) => {
        responses[code] ??= { description: COMMON[code], content: ERROR_CONTENT };
      };
      const api = path.startsWith('/api/v1/');
      if (api || operation.parameters?.some((p) => p.in === 'path' || p.in === 'query') || operation.requestBody)
        add(400);
      if (operation.requestBody) {
        add(413);
        add(415);
      }
      if (api) add(503);
      const partner = operation.security?.some((s) => 'apiKey' in s) === true;
      const staff = operation.security?.some((s) => 'staffJwt' in s) === true;
      if (partner || staff) add(401);
      if (partner) {
        add(403);
        add(429);
      }
      const sends: Sends = { ...operation[SENDS] };
      delete operation[SENDS];
      if (operation[OPTIONAL_BODY] && operation.requestBody) operation.requestBody.required = false;
      delete operation[OPTIONAL_BODY];
      if (operation.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key')) {
        responses[409] = { description: IDEMPOTENCY_CONFLICT, content: ERROR_CONTENT };
        add(422);
        if (!responses[422].description.endsWith(IDEMPOTENCY_MISMATCH))
          responses[422].description += IDEMPOTENCY_MISMATCH;
        sends['Idempotent-Replayed'] = Object.keys(responses)
          .map(Number)
          .filter((code) => code >= 200 && code < 300);
      }
      for (const [code, response] of Object.entries(responses)) {
        // Every refusal is the error handler's JSON, whatever the operation sends when it succeeds (`produces`).
        if (Number(code) >= 400 && response.content && !response.content['application/json']) {
          response.content = { 'application/json': Object.values(response.content)[0] };
        }
        const headers: Json = { 'X-Request-Id': ref('X-Request-Id') };
        if (partner) for (const name of RATE_LIMIT) headers[name] = ref(name);
        if (code === '429' || code === '503') headers['Retry-After'] = ref('Retry-After');
        for (const [name, codes] of Object.entries(sends))
          if (codes === '*' || codes.includes(Number(code))) headers[name] = ref(name);
        response.headers = { ...headers, ...response.headers };
      }
    }
  }
  return generated;
}
