import { hash } from 'node:crypto';
import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { declareSends } from './response-headers.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer with an ETag of the body and 304 to a matching If-None-Match (cheap polling, docs/integration.md). */
    etag?: boolean;
  }
}

/**
 * ETags for the routes that ask for one (`config: { etag: true }`): a strong tag from a hash of the exact bytes
 * sent, so it changes exactly when the body does, and `304 Not Modified` with no body when the request's
 * If-None-Match names it. Only 200 answers are tagged; an error is never turned into a 304. @fastify/etag tags
 * every response of its scope, errors and POSTs included, and compares If-None-Match as one whole string.
 */
export function registerEtag(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.config?.etag) return;
    // The tagged routes' own hook: no other route runs it, and it need not look up the route's config per request.
    route.onSend = [...[route.onSend ?? []].flat(), tagBody];
    if (!route.schema) return;
    // The OpenAPI document shows the header and the 304 of every tagged route, from this one place.
    route.schema.headers ??= IF_NONE_MATCH;
    route.schema.response = Object.assign({}, route.schema.response, { 304: NOT_MODIFIED });
    declareSends(route, 'ETag', [200, 304]);
    declareSends(route, 'Cache-Control', [200, 304]);
  });
}

/** A callback hook: it never waits, and an async one costs a promise and a turn of the microtask queue per response. */
const tagBody: onSendHookHandler = (request, reply, payload, done) => {
  if (reply.statusCode !== 200) return done(null, payload);
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
  const tag = tagOf(payload);
  reply.header('etag', tag);
  // The body depends on the key: a shared cache must not keep it, a client must ask again (and gets a 304).
  reply.header('cache-control', 'private, no-cache');
  if (!matches(request.headers['if-none-match'], tag)) return done(null, payload);
  reply.code(304);
  reply.removeHeader('content-type');
  done(null, '');
};

/**
 * Tags of bodies sent as the same buffer again (the catalogue snapshot's, sent to every poller until the next
 * change): hashing the same 3 KB on every poll was the largest single cost of such a read (without the hook,
 * 37 → 27.5 µs of CPU per request). A buffer sent is never written to afterwards, and the entry goes with it.
 */
const tags = new WeakMap<Buffer, string>();

function tagOf(payload: string | Buffer): string {
  if (typeof payload === 'string') return hashTag(payload);
  let tag = tags.get(payload);
  if (tag === undefined) tags.set(payload, (tag = hashTag(payload)));
  return tag;
}

function hashTag(payload: string | Buffer): string {
  return `"${hash('sha256', payload, 'base64url').slice(0, 32)}"`;
}

const IF_NONE_MATCH = {
  type: 'object',
  properties: {
    'if-none-match': {
      type: 'string',
      description: 'The ETag of the body you have; if it is still current the answer is 304 with no body',
    },
  },
};
const NOT_MODIFIED = {
  description: 'Not Modified: the body is the one the If-None-Match tag names (no body is sent)',
  type: 'null',
};

/** RFC 9110 13.1.2: `*`, or a list of tags compared weakly (a `W/` prefix is ignored). */
export function matches(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === tag);
}
