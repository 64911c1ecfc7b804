import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { declareSends } from '../http/response-headers.js';

/** Chromium caps a preflight's cache at 2 hours; 10 minutes lets a change of policy reach pages soon. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;
/** The headers a page may read: the rate limit's (to wait out a 429) and the request id (to report a problem). */
const EXPOSED =
  'Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, RateLimit, RateLimit-Policy';
const SECRET_BEARER = /^Bearer\s+sk_/i;

/**
 * CORS for the public endpoints (the routes any key may call, `keyAccess.keys` 'any'), in this one place: a page
 * on any origin may call them with a public key, and reads every answer, errors included (401, 403, 429, 400).
 * Every other route sends no CORS header, so a browser refuses to hand its answers to a page; so does a public
 * endpoint called with a secret key (`sk_…`), which must never live in a page. A preflight carries no key,
 * so it is answered for the public paths whatever key follows. Whether a key accepts the page's origin is
 * partner-auth's decision (allowed origins), answered with a 403 the page can read.
 */
export function registerPublicCors(app: FastifyInstance, partnerPrefix: string): void {
  const publicPaths = new Map<string, string[]>();
  app.addHook('onRoute', (route) => {
    if (route.config?.keyAccess?.keys !== 'any') return;
    const methods = publicPaths.get(route.url) ?? [];
    for (const method of [route.method].flat())
      if (method !== 'HEAD' && !methods.includes(method)) methods.push(method);
    publicPaths.set(route.url, methods);
    // The public routes' own hook, first of their route hooks (before the key check, whose refusals a page must read):
    // no other request runs it, and none looks up its route's config.
    route.onRequest = [allowPages, ...[route.onRequest ?? []].flat()];
    declareSends(route, 'Vary', '*');
  });

  app.options(`${partnerPrefix}/public/*`, { schema: { hide: true } }, async (request, reply) => {
    const methods = publicPaths.get(request.url.split('?')[0]);
    if (!methods) return reply.callNotFound();
    reply.header('Vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
    const origin = request.headers.origin;
    if (origin !== undefined) {
      reply.header('Access-Control-Allow-Origin', origin);
      reply.header('Access-Control-Allow-Methods', [...methods, 'OPTIONS'].join(', '));
      reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type');
      reply.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE_SECONDS));
    }
    return reply.code(204).send();
  });
}

/** A callback hook: it never waits (an async one costs a promise and a microtask turn on every partner request). */
const allowPages: onRequestHookHandler = (request, reply, done) => {
  // Lower-case names on the hot path: Fastify lowercases each name, a new string per call for a mixed-case one.
  reply.header('vary', 'Origin');
  const origin = request.headers.origin;
  if (origin !== undefined && !usesSecretKey(request)) {
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', EXPOSED);
  }
  done();
};

function usesSecretKey(request: FastifyRequest): boolean {
  return SECRET_BEARER.test(request.headers.authorization ?? '');
}
