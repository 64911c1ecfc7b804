import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database, Tx } from '../../db/database.js';
import { idempotencyKey, requestHash } from './key.js';
import { runOnce, type IdempotencyOptions, type IdempotencyOwner } from './service.js';

export type { IdempotencyOptions, IdempotencyOwner };

/** Whose keys a route's requests use. */
export type OwnerOf = (request: FastifyRequest) => IdempotencyOwner;

/** Partner routes: keys are scoped to the API key. */
export const byApiKey: OwnerOf = (request) => ({ apiKeyId: request.apiKey.keyId });

/** Back-office routes: keys are scoped to the staff user, whatever token or device the user signed in with. */
export const byStaffUser: OwnerOf = (request) => ({ staffUserId: request.staff.staffUserId });

export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The seam a creating route uses: `respond(request, reply, 201, (tx) => …)` sends what the work returns with
 * `status`. Without an `Idempotency-Key` header the work runs as it always did (tx undefined: it uses the
 * database or its own transaction); with one, it runs inside runOnce's transaction, and its answer, serialized
 * by the route's response schema, is stored in that transaction and replayed byte for byte. `ownerOf` says whose
 * key it is: `byApiKey` or `byStaffUser`.
 */
export function idempotentResponder(db: Database, options: IdempotencyOptions, ownerOf: OwnerOf) {
  return async function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    work: (tx: Tx | undefined) => Promise<unknown>,
  ): Promise<FastifyReply> {
    const key = idempotencyKey(request.headers['idempotency-key']);
    if (key === undefined) return reply.code(status).send(await work(undefined));
    const hash = requestHash(request.method, request.routeOptions.url ?? request.url, request.body);
    const answer = await runOnce(db, options, { owner: ownerOf(request), key, hash }, async (tx) => {
      const body = await work(tx);
      reply.code(status);
      return { status, body: reply.serialize(body) as string };
    });
    if (answer.replayed) reply.header(REPLAYED_HEADER, 'true');
    return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
  };
}

export type Respond = ReturnType<typeof idempotentResponder>;
