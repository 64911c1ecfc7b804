/**
 * The answers every operation of a kind may give, written into the generated document here rather than into
 * each route's schema, where one forgotten route would make the document lie:
 * - 400 and 503 (with Retry-After) on every operation under /api/v1: each refuses a query parameter it does not
 *   take, and each may meet a database that cannot answer; elsewhere 400 where a path or query is validated;
 * - 413 and 415 wherever a body is read;
 * - on a partner operation (an API key), the rate-limit headers on every answer and Retry-After on its 429;
 * - X-Request-Id on every answer;
 * - refusals as JSON, also from an operation that `produces` something else (the order stream).
 */
type Json = Record<string, any>;

const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const COMMON: Record<string, string> = {
  400: 'Bad Request: a missing or invalid field or parameter, or a query parameter the operation does not take (`errors` names each)',
  413: 'Payload Too Large: the body is larger than the service accepts',
  415: 'Unsupported Media Type: the body is not JSON in UTF-8 sent as is',
  503: 'Service Unavailable: the database could not answer; retry after Retry-After seconds',
};

const HEADERS: Json = {
  'X-Request-Id': { description: 'The request\'s id: yours if you sent a valid X-Request-Id, else a new UUID; quote it when reporting a problem', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Requests allowed per window to this key (to this address, for a request without a valid key)', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When the current window ends, in Unix seconds', schema: { type: 'integer' } },
  RateLimit: { description: 'The same as an IETF RateLimit field: `"<policy>";r=<remaining>;t=<seconds to reset>`', schema: { type: 'string' } },
  'RateLimit-Policy': { description: 'The policy as an IETF RateLimit-Policy field: `"<policy>";q=<limit>;w=<window seconds>`', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};
const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'RateLimit', 'RateLimit-Policy'];
const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function withCommonResponses(document: Json): Json {
  document.components = { ...document.components, headers: { ...document.components?.headers, ...HEADERS } };
  for (const [path, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const operation of Object.values<Json>(item)) {
      const responses: Json = (operation.responses ??= {});
      const add = (code: number) => { responses[code] ??= { description: COMMON[code], content: ERROR_CONTENT }; };
      const api = path.startsWith('/api/v1/');
      if (api || operation.parameters?.some((p: Json) => p.in === 'path' || p.in === 'query') || operation.requestBody) add(400);
      if (operation.requestBody) { add(413); add(415); }
      if (api) add(503);
      const partner = operation.security?.some((s: Json) => 'apiKey' in s) === true;
      for (const [code, response] of Object.entries<Json>(responses)) {
        // Every refusal is the error handler's JSON, whatever the operation sends when it succeeds (`produces`).
        if (Number(code) >= 400 && response.content && !response.content['application/json']) {
          response.content = { 'application/json': Object.values<Json>(response.content)[0] };
        }
        const headers: Json = { 'X-Request-Id': ref('X-Request-Id') };
        if (partner) for (const name of RATE_LIMIT) headers[name] = ref(name);
        if (code === '429' || code === '503') headers['Retry-After'] = ref('Retry-After');
        response.headers = { ...headers, ...response.headers };
      }
    }
  }
  return document;
}
