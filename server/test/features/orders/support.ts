import { sql } from 'kysely';
import type { Database } from '../../../src/db/database.js';
import type { OrderStatus, WebhookEvent } from '../../../src/db/schema.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';

/** A valid offer order at exchange A: 100 USD → EUR. */
export function orderBody(world: World, overrides: Record<string, unknown> = {}) {
  return {
    cashbox: { id: world.exchanges.A },
    currency1: { id: world.currencies.USD },
    currency2: { id: world.currencies.EUR },
    operationType: 'offer',
    clientAmount: 100,
    ...overrides,
  };
}

export async function placeOrder(server: TestServer, key: string, body: Record<string, unknown>) {
  const res = await call(server, 'POST', '/partner/orders', { key, body });
  if (res.status !== 201) throw new Error(`order creation failed: ${res.status} ${res.text}`);
  return res.body as { id: number; hashedId: string; status: string; createdAt: string; expiresAt: string | null };
}

export async function staffToken(server: TestServer, staffUserId: number): Promise<string> {
  return (await server.ctx.tokens.sign(staffUserId)).accessToken;
}

/** A webhook of the branch (a branch key's) subscribed to every order event, so the outbox records them. */
export async function subscribeBranch(db: Database, branchId: number): Promise<string> {
  const row = await db
    .insertInto('webhooks')
    .values({
      branch_id: branchId,
      url: 'https://receiver.example/hook',
      events: ['order.created', 'order.status_changed', 'order.cancelled'],
      secret_key: 'a'.repeat(64),
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface RecordedEvent {
  event: WebhookEvent;
  body: Record<string, any>;
}

/**
 * The events recorded for a webhook, oldest first, optionally only those about one order. Events of one
 * transaction share a timestamp, so they are ranked in the order they are written.
 */
export async function recordedEvents(db: Database, webhookId: string, orderId?: number): Promise<RecordedEvent[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['event', 'body'])
    .where('webhook_id', '=', webhookId)
    .orderBy('created_at')
    .orderBy(sql`array_position(array['order.created', 'order.status_changed', 'order.cancelled'], event)`)
    .execute();
  const events = rows.map((r) => ({ event: r.event, body: JSON.parse(r.body) }));
  return orderId === undefined ? events : events.filter((e) => e.body.data?.id === orderId);
}

/** The staff moves that bring a new order to each status. */
export const PATH_TO: Record<OrderStatus, OrderStatus[]> = {
  ORDERINIT: [],
  CLIENTPAYMENTWAIT: ['CLIENTPAYMENTWAIT'],
  EXCHANGEPAYMENTWAIT: ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT'],
  CASHOUT: ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'CASHOUT'],
  SUCCESS: ['CLIENTPAYMENTWAIT', 'EXCHANGEPAYMENTWAIT', 'SUCCESS'],
  CANCEL: ['CANCEL'],
};

/** A new order at exchange A (made by the branch key), moved by `token`'s staff user to `status`. */
export async function orderIn(server: TestServer, world: World, token: string, status: OrderStatus): Promise<number> {
  const { id } = await placeOrder(server, world.keys.branch, orderBody(world));
  for (const step of PATH_TO[status]) {
    const res = await call(server, 'POST', `/admin/orders/${id}/status`, { token, body: { status: step } });
    if (res.status !== 200) throw new Error(`setup move to ${step} failed: ${res.text}`);
  }
  return id;
}

export async function historyCount(db: Database, orderId: number): Promise<number> {
  return (await db.selectFrom('order_status_history').select('id').where('order_id', '=', orderId).execute()).length;
}
