import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import type { Permission } from '../db/schema.js';
import { badRequest, forbidden, unauthorized } from '../http/errors.js';
import { KEY_PREFIXES } from './key-format.js';
import type { KeyVerifier, Verification } from './key-verifier.js';
import type { LastUsedTracker } from './last-used.js';
import type { KeyPrincipal } from './principal.js';
import { rateLimitExceeded, setRateLimitHeaders } from './rate-limit-headers.js';
import type { RateDecision, RateLimiter } from './rate-limiter.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which keys may call a partner route: required on every route of the partner scope. */
    keyAccess?: KeyAccess;
    /**
     * The route also takes a public key as `?key=pk_…` (rates.xml: a rate monitor is given a URL and sends no
     * header). A secret key there is refused unread, and a key in both places is refused as ambiguous.
     */
    keyInQuery?: boolean;
  }
  interface FastifyRequest {
    apiKey: KeyPrincipal;
  }
}

/**
 * Which keys may call a partner route, stated by every one (route-access.ts partnerRoute): any key, a public one
 * included (the public endpoints); any secret key; or a secret key holding a permission.
 */
export type KeyAccess =
  { keys: 'any' | 'secret'; permission?: undefined } | { keys?: undefined; permission: Permission };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * API-key authentication for every route of the scope it is registered in: key check (401), per-key rate
 * limit counted after authentication (429), then type and permission checks (403). Requests without a valid
 * key are counted per IP so that guessing keys is slow.
 */
export interface PartnerAuthDeps {
  keys: KeyVerifier;
  limits: { perKey: RateLimiter; perIp: RateLimiter };
  lastUsed: LastUsedTracker;
}

/**
 * Each route of the scope gets its own hook, holding the route's config, so no request looks it up (Fastify builds
 * `request.routeOptions` anew on each read). A request that matches no route is a 404 of the root scope, as before.
 */
export function registerPartnerAuth(app: FastifyInstance, deps: PartnerAuthDeps): void {
  app.decorateRequest('apiKey', null as unknown as KeyPrincipal);
  app.addHook('onRoute', (route) => {
    if (!route.config?.keyAccess) {
      throw new Error(
        `${[route.method].flat().join(',')} ${route.url}: a partner route states which keys may call it (partnerRoute's keys or permission)`,
      );
    }
    route.onRequest = [...[route.onRequest ?? []].flat(), authenticate(deps, route.config ?? {})];
  });
}

/**
 * A callback hook whose steps wait only when they must: a cached key and a limit counted in process are decided
 * at once, so a partner read costs no promise here (with Redis counting, the limit's answer is awaited).
 */
function authenticate(deps: PartnerAuthDeps, config: FastifyContextConfig): onRequestHookHandler {
  // Decided once per route: every other route reads the header alone, as before.
  const presented = config.keyInQuery ? keyFromQueryOrHeader : keyFromHeader;
  return (request, reply, done) => {
    const key = presented(request);
    if (key instanceof Error) return refuse(deps, request, reply, done, key);
    if (key === undefined)
      return refuse(deps, request, reply, done, unauthorized(config.keyInQuery ? MISSING_KEY_OR_QUERY : MISSING_KEY));
    step(deps.keys.verify(key), done, (result: Verification) => {
      if (!result.ok)
        return refuse(
          deps,
          request,
          reply,
          done,
          unauthorized(result.reason === 'expired' ? 'API key has expired' : 'Invalid or revoked API key'),
        );
      const principal = result.principal;
      step(deps.limits.perKey.consume(principal.keyId), done, (decision: RateDecision) => {
        setRateLimitHeaders(reply, decision, 60);
        if (!decision.allowed) return done(rateLimitExceeded(decision));
        deps.lastUsed.touch(principal.keyId);
        request.apiKey = principal;
        done(refusal(principal, config, request.headers.origin));
      });
    });
  };
}

const MISSING_KEY = 'Missing API key: send Authorization: Bearer <API_KEY>';
const MISSING_KEY_OR_QUERY = 'Missing API key: send Authorization: Bearer <API_KEY>, or a public key as ?key=pk_…';
const SECRET_KEY_IN_URL =
  'A secret key (sk_…) is never accepted in a URL: use a public key (pk_…) in ?key=, or send the key in the ' +
  'Authorization header. A URL is kept in logs, proxies and browser histories: treat this secret key as exposed and roll it';
/** `sk_`, and the prefix of every key type but the public one (should one not begin with `sk_`): none is read from a URL. */
const SECRET_PREFIXES = [
  'sk_',
  ...Object.entries(KEY_PREFIXES)
    .filter(([type]) => type !== 'public')
    .map(([, prefix]) => prefix),
];
const secretShaped = (value: unknown) =>
  typeof value === 'string' && SECRET_PREFIXES.some((p) => value.trimStart().toLowerCase().startsWith(p));

function keyFromHeader(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

const queryKey = (request: FastifyRequest): unknown => (request.query as Record<string, unknown> | undefined)?.key;

/**
 * The key of a route that also reads `?key=`. A value shaped like a secret key is refused before anything else and
 * never looked up: it is never accepted there, and whether it is a real key is not this answer's to tell. A key in
 * both places is refused rather than one of them chosen: which one the client meant cannot be known.
 */
function keyFromQueryOrHeader(request: FastifyRequest): string | Error | undefined {
  const given = queryKey(request);
  if (given === undefined) return keyFromHeader(request);
  const values = [given].flat();
  if (values.some(secretShaped)) {
    // Without the key (the access line's URL has it redacted): its request id and address say where it came from.
    request.log.warn('a secret key was sent in ?key= and refused unread; its owner should roll it');
    return badRequest(SECRET_KEY_IN_URL, { key: 'notAllowed' });
  }
  if (values.length !== 1 || typeof values[0] !== 'string')
    return badRequest('Send one key in ?key=', { key: 'invalid' });
  if (request.headers.authorization !== undefined) {
    return badRequest('Send the API key either in the Authorization header or in ?key=, not both', {
      key: 'ambiguous',
    });
  }
  return values[0];
}

/** Why this key may not call a route of this config (403), or undefined. */
function refusal(principal: KeyPrincipal, config: FastifyContextConfig, origin: string | undefined): Error | undefined {
  const access = config.keyAccess!;
  if (principal.keyType === 'public' && access.keys !== 'any') {
    return forbidden('A public key may only call the public endpoints');
  }
  // A request with no Origin is not from another site's page (a server, or this service's own pages).
  if (principal.allowedOrigins && origin !== undefined && !principal.allowedOrigins.has(origin)) {
    return forbidden(`Origin ${origin.slice(0, 200)} is not allowed to use this key`);
  }
  if (access.permission && !principal.permissions.has(access.permission)) {
    return forbidden(`This key lacks the ${access.permission} permission`);
  }
  return undefined;
}

/** Counts a request without a valid key against its address; its answer carries that address's budget. */
function refuse(
  deps: PartnerAuthDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
  error: Error,
): void {
  step(deps.limits.perIp.consume(request.ip), done, (decision: RateDecision) => {
    setRateLimitHeaders(reply, decision, 60, 'unauthenticated');
    done(decision.allowed ? error : rateLimitExceeded(decision));
  });
}

/** Goes on with a value now, or when its promise settles; a rejection (the database, Redis) ends the request. */
function step<T>(value: T | Promise<T>, done: HookHandlerDoneFunction, next: (value: T) => void): void {
  if (value instanceof Promise) value.then(next, done).catch(done);
  else next(value);
}
