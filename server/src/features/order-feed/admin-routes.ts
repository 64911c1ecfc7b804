import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { acceptsToken } from '../../auth/staff-jwt.js';
import type { Database } from '../../db/database.js';
import { OutageLog } from '../../db/outage-log.js';
import { AppError } from '../../http/errors.js';
import { staffRoute } from '../../auth/route-access.js';
import type { App } from '../../http/types.js';
import type { Log } from '../../log.js';
import { OrderFeed } from './feed.js';
import { StreamResponse } from './schemas.js';
import { openStream } from './stream.js';
import { StreamSlots } from './stream-slots.js';
import { findStaffForAuth } from '../staff/service.js';

/** Poll once a second while anyone watches: a new order reaches the board within about two. */
const POLL_MS = 1000;
const GAP_WAIT_MS = 10_000;
/**
 * Open streams per staff user per instance. A console tab holds one, so ten leave room for a user's tabs and
 * devices while a runaway client cannot pile up sockets and timers. Counted per instance, not shared: what a
 * stream costs (its socket, timers, subscription) is spent on the instance that holds it.
 */
const MAX_STREAMS_PER_USER = 10;
/** The stream's own reconnection delay (`retry: 3000`): a client refused waits as long as one cut off. */
const RETRY_AFTER_SECONDS = 3;
const TOO_MANY = `Too many open order streams for this staff user (at most ${MAX_STREAMS_PER_USER}); close one first`;

/** GET /admin/orders/stream: the order board's live feed, as server-sent events over a fetch with the staff token. */
export function orderFeedRoutes({ db, log }: { db: Database; log: Log }) {
  return async function routes(app: App) {
    // A poll fails every second while the database is away: the outage is logged once, not each time.
    const feed = new OrderFeed(db, {
      pollMs: POLL_MS,
      gapWaitMs: GAP_WAIT_MS,
      failures: new OutageLog(log, 'the order feed goes on'),
    });
    const streams = new Set<() => void>();
    const slots = new StreamSlots(MAX_STREAMS_PER_USER);
    // Open streams would keep the server from closing: end them first, the clients reconnect to another instance.
    app.addHook('preClose', async () => {
      for (const end of streams) end();
      feed.stop();
    });

    app.get(
      '/orders/stream',
      staffRoute('admin')({
        permission: 'orders:read',
        // The stream's own head says no-store too (stream.ts); this puts it on its refusals, and in the document.
        config: { noStore: true },
        schema: {
          operationId: 'streamOrderChanges',
          summary: "Live order changes in the caller's scope (server-sent events)",
          produces: ['text/event-stream'],
          response: {
            200: StreamResponse,
            429: Type.Ref('Error', {
              description: `Too Many Requests: the staff user has ${MAX_STREAMS_PER_USER} streams open on this instance; close one first`,
            }),
          },
        },
      }),
      async (request, reply) => {
        const staff = request.staff;
        const release = slots.take(staff.staffUserId);
        if (!release)
          throw new AppError(
            'rateLimited',
            TOO_MANY,
            undefined,
            { 'Retry-After': RETRY_AFTER_SECONDS },
            RETRY_AFTER_SECONDS,
          );
        try {
          await openStream(reply, {
            feed,
            scope: { branchId: staff.branchId, exchangeIds: staff.exchangeIds },
            expiresAt: staff.token.expiresAt * 1000,
            stillValid: () => sameStaff(db, request),
            open: streams,
            onEnd: release,
          });
        } catch (err) {
          // It failed before it opened (the feed's first read): no end() will give the slot back.
          release();
          throw err;
        }
      },
    );
  };
}

/**
 * The stream was opened under this role and scope; a change of either ends it (the client reconnects under the new
 * one), and so does a cutoff that voids its token (log out, password change: the client's reconnection gets 401).
 */
async function sameStaff(db: Database, request: FastifyRequest): Promise<boolean> {
  const s = request.staff;
  const now = await findStaffForAuth(db, { id: s.staffUserId });
  if (!acceptsToken(now, s.token.issuedAt) || now.role !== s.role || now.branch_id !== s.branchId) return false;
  if (s.role === 'operator' && !now.permissions.includes('orders:read')) return false;
  return s.exchangeIds === null || now.exchange_ids.join() === s.exchangeIds.join();
}
