import type { FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { voidedBy } from '../../auth/staff-jwt.js';
import type { Database } from '../../db/database.js';
import { OutageLog } from '../../db/outage-log.js';
import { forbidden } from '../../http/errors.js';
import { errorResponses } from '../../http/schemas.js';
import type { App } from '../../http/types.js';
import type { Log } from '../../log.js';
import { OrderFeed } from './feed.js';
import { StreamResponse } from './schemas.js';
import { openStream } from './stream.js';
import { findStaffForAuth } from '../staff/service.js';

/** Poll once a second while anyone watches: a new order reaches the board within about two. */
const POLL_MS = 1000;
const GAP_WAIT_MS = 10_000;

/** GET /admin/orders/stream: the order board's live feed, as server-sent events over a fetch with the staff token. */
export function orderFeedRoutes({ db, log }: { db: Database; log: Log }) {
  return async function routes(app: App) {
    // A poll fails every second while the database is away: the outage is logged once, not each time.
    const feed = new OrderFeed(db, { pollMs: POLL_MS, gapWaitMs: GAP_WAIT_MS, failures: new OutageLog(log, 'the order feed goes on') });
    const streams = new Set<() => void>();
    // Open streams would keep the server from closing: end them first, the clients reconnect to another instance.
    app.addHook('preClose', async () => { for (const end of streams) end(); feed.stop(); });

    app.get('/orders/stream', {
      config: { staffRoles: ['superadmin', 'admin', 'operator'] },
      schema: {
        operationId: 'streamOrderChanges', tags: ['admin'], summary: 'Live order changes in the caller\'s scope (server-sent events)',
        security: [{ staffJwt: [] }], produces: ['text/event-stream'], response: { 200: StreamResponse, ...errorResponses(401, 403) },
      },
    }, async (request, reply) => {
      const staff = request.staff;
      if (!staff.permissions.has('orders:read')) throw forbidden('This staff user lacks the orders:read permission');
      await openStream(reply, {
        feed, scope: { branchId: staff.branchId, exchangeIds: staff.exchangeIds },
        expiresAt: tokenExpiry(request), stillValid: () => sameStaff(db, request), open: streams,
      });
    });
  };
}

/** The claims of the request's token, verified by staff authentication before the handler ran. */
const claims = (request: FastifyRequest) => decodeJwt(/^Bearer\s+(\S+)/i.exec(request.headers.authorization ?? '')![1]);

function tokenExpiry(request: FastifyRequest): number | null {
  const exp = claims(request).exp;
  return exp === undefined ? null : exp * 1000;
}

/**
 * The stream was opened under this role and scope; a change of either ends it (the client reconnects under the new
 * one), and so does a cutoff that voids its token (log out, password change: the client's reconnection gets 401).
 */
async function sameStaff(db: Database, request: FastifyRequest): Promise<boolean> {
  const s = request.staff;
  const now = await findStaffForAuth(db, { id: s.staffUserId });
  if (!now || !now.is_active || now.role !== s.role || now.branch_id !== s.branchId) return false;
  if (voidedBy(claims(request).iat ?? null, now.tokens_valid_after)) return false;
  if (s.role === 'operator' && !now.permissions.includes('orders:read')) return false;
  return s.exchangeIds === null || now.exchange_ids.join() === s.exchangeIds.join();
}
