import type { FastifyInstance, onSendHookHandler, RouteOptions } from 'fastify';
import { optionalBody } from './schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Every answer says `Cache-Control: no-store`: it holds a secret shown once (a raw key, a signing secret, a token). */
    noStore?: boolean;
  }
}

/**
 * What a route's hooks add to its answers, written onto its schema by the hook that adds it, so the OpenAPI
 * document (openapi-common.ts) declares a header exactly on the operations that send it. `'*'`: every answer.
 */
export const SENDS = 'x-pxs-sends';
export const OPTIONAL_BODY = 'x-pxs-optional-body';
export type Sends = Record<string, number[] | '*'>;

export function declareSends(route: Pick<RouteOptions, 'schema'>, header: string, codes: number[] | '*'): void {
  if (!route.schema) return;
  const schema = route.schema as Record<string, unknown>;
  schema[SENDS] = { ...(schema[SENDS] as Sends | undefined), [header]: codes };
}

/**
 * The route options every route may use that change its answers: `config.noStore`, and a body the caller may
 * leave out (the `optionalBody` hook), which the document must not mark as required. Registered before any route.
 */
export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.schema && [route.preValidation ?? []].flat().includes(optionalBody))
      (route.schema as Record<string, unknown>)[OPTIONAL_BODY] = true;
    if (!route.config?.noStore) return;
    // On every answer, errors and idempotent replays included: a cache never has a reason to keep any of them.
    route.onSend = [...[route.onSend ?? []].flat(), noStore];
    declareSends(route, 'Cache-Control', '*');
  });
}

const noStore: onSendHookHandler = (_request, reply, payload, done) => {
  reply.header('cache-control', 'no-store');
  done(null, payload);
};
