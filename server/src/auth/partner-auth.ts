import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '../db/schema.js';
import { forbidden, unauthorized } from '../http/errors.js';
import type { KeyVerifier } from './key-verifier.js';
import type { LastUsedTracker } from './last-used.js';
import type { KeyPrincipal } from './principal.js';
import { rateLimitExceeded, setRateLimitHeaders } from './rate-limit-headers.js';
import type { RateLimiter } from './rate-limiter.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route is one of the four public endpoints a `pk_` key may call. */
    publicKeyAllowed?: boolean;
    /** The permission a secret key's principal needs for this route. */
    permission?: Permission;
  }
  interface FastifyRequest {
    apiKey: KeyPrincipal;
  }
}

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

export function registerPartnerAuth(app: FastifyInstance, deps: PartnerAuthDeps): void {
  app.decorateRequest('apiKey', null as unknown as KeyPrincipal);

  app.addHook('onRequest', async (request, reply) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) {
      await countFailure(deps, request, reply);
      throw unauthorized('Missing API key: send Authorization: Bearer <API_KEY>');
    }
    const result = await deps.keys.verify(match[1]);
    if (!result.ok) {
      await countFailure(deps, request, reply);
      throw unauthorized(result.reason === 'expired' ? 'API key has expired' : 'Invalid or revoked API key');
    }
    const principal = result.principal;
    const decision = await deps.limits.perKey.consume(principal.keyId);
    setRateLimitHeaders(reply, decision, 60);
    if (!decision.allowed) throw rateLimitExceeded(decision);
    deps.lastUsed.touch(principal.keyId);
    request.apiKey = principal;

    const config = request.routeOptions.config;
    if (principal.keyType === 'public' && !config.publicKeyAllowed) {
      throw forbidden('A public key may only call the public endpoints');
    }
    // A request with no Origin is not from another site's page (a server, or this service's own pages).
    const origin = request.headers.origin;
    if (principal.allowedOrigins && origin !== undefined && !principal.allowedOrigins.has(origin)) {
      throw forbidden(`Origin ${origin.slice(0, 200)} is not allowed to use this key`);
    }
    if (config.permission && !principal.permissions.has(config.permission)) {
      throw forbidden(`This key lacks the ${config.permission} permission`);
    }
  });
}

/** Counts a request without a valid key against its address; its answer carries that address's budget. */
async function countFailure(deps: PartnerAuthDeps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const decision = await deps.limits.perIp.consume(request.ip);
  setRateLimitHeaders(reply, decision, 60, 'unauthenticated');
  if (!decision.allowed) throw rateLimitExceeded(decision);
}
