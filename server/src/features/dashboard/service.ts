import type { StaffPrincipal } from '../../auth/principal.js';
import type { Executor } from '../../db/database.js';
import { countByStatusSince, waitingLongest } from '../orders/service.js';
import { turnoverToday } from '../reports/service.js';
import { adminWebhook } from '../webhooks/presenters.js';
import { staffVisibility, webhooksInTrouble } from '../webhooks/service.js';

const SHORT_LIST = 10;

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The home page of the console: today's orders by status, those waiting longest, and webhooks that need a look. */
export async function dashboard(db: Executor, staff: StaffPrincipal, since: Date | undefined) {
  const from = since ?? startOfUtcDay(new Date());
  const readsOrders = staff.permissions.has('orders:read');
  const [byStatus, waiting, turnover, hooks] = await Promise.all([
    readsOrders ? countByStatusSince(db, staff, from) : null,
    readsOrders ? waitingLongest(db, staff, SHORT_LIST) : null,
    readsOrders ? turnoverToday(db, staff, from) : null,
    staff.permissions.has('webhooks:manage') ? webhooksInTrouble(db, staffVisibility(staff), SHORT_LIST) : null,
  ]);
  return {
    since: from,
    orders: byStatus &&
      waiting && {
        byStatus,
        total: Object.values(byStatus).reduce((a, b) => a + b, 0),
        waitingLongest: waiting.map((o) => ({
          id: o.id,
          hashedId: o.hashed_id,
          status: o.status,
          exchangeId: o.cashbox_id,
          clientAmount: o.client_amount,
          currency1: o.c1_code,
          exchangeAmount: o.exchange_amount,
          currency2: o.c2_code,
          createdAt: o.created_at,
          updatedAt: o.updated_at,
        })),
      },
    turnover,
    webhooksInTrouble: hooks && hooks.map(adminWebhook),
  };
}
