import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Tx } from '../../db/database.js';
import { idempotencyKey, requestHash } from './key.js';
import { runOnce, type IdempotencyOptions } from './service.js';

export type { IdempotencyOptions };

export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The seam a creating route uses: `respond(request, reply, 201, (tx) => …)` sends what the work returns with
 * `status`. Without an `Idempotency-Key` header the work runs as it always did (tx undefined: it uses the
 * database or its own transaction); with one, it runs inside runOnce's transaction, and its answer, serialized
 * by the route's response schema, is stored in that transaction and replayed byte for byte.
 */
export function idempotentResponder(db: Database, options: IdempotencyOptions) {
  return async function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    work: (tx: Tx | undefined) => Promise<unknown>,
  ): Promise<FastifyReply> {
    const key = idempotencyKey(request.headers['idempotency-key']);
    if (key === undefined) return reply.code(status).send(await work(undefined));
    const apiKeyId = request.apiKey.keyId;
    const hash = requestHash(request.method, request.routeOptions.url ?? request.url, request.body);
    const answer = await runOnce(db, options, { apiKeyId, key, hash }, async (tx) => {
      const body = await work(tx);
      reply.code(status);
      return { status, body: reply.serialize(body) as string };
    });
    if (answer.replayed) reply.header(REPLAYED_HEADER, 'true');
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
  };
}

export type Respond = ReturnType<typeof idempotentResponder>;
