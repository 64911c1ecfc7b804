import { expect } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import { eventually, type Receiver } from '../webhooks/support.js';

export interface Placed {
  id: number;
  status: string;
  createdAt: string;
  expiresAt: string | null;
}

/** Sets an exchange's payment window through the back office. */
export async function setWindow(server: TestServer, token: string, exchangeId: number, seconds: number) {
  const res = await call(server, 'PATCH', `/admin/exchanges/${exchangeId}`, {
    token,
    body: { paymentWindowSeconds: seconds },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.paymentWindowSeconds).toBe(seconds);
}

/**
 * Waits for the order to be cancelled by the system, then checks it happened once: within 5 s of its deadline (or of
 * `startedAt`, when no job ran at the deadline), one history entry by `system` with reason `expired`, one
 * `order.status_changed` and one `order.cancelled` (carrying `reason: "expired"`) per webhook, each received once.
 */
export async function expiredOnce(
  server: TestServer,
  order: Placed,
  hooks: readonly string[],
  receiver: Receiver,
  options: { startedAt?: number } = {},
) {
  const cancel = await eventually(
    () =>
      server.db
        .selectFrom('order_status_history')
        .selectAll()
        .where('order_id', '=', order.id)
        .where('to_status', '=', 'CANCEL')
        .executeTakeFirst(),
    15_000,
    50,
  );
  const due = Math.max(Date.parse(order.expiresAt!), options.startedAt ?? 0);
  expect(cancel.created_at.getTime() - due).toBeLessThan(5000);
  expect(cancel.created_at.getTime()).toBeGreaterThanOrEqual(Date.parse(order.expiresAt!));
  expect(cancel).toMatchObject({ actor_type: 'system', api_key_id: null, staff_user_id: null, comment: 'expired' });

  const cancelled = (r: { body: string }) => {
    const body = JSON.parse(r.body) as { event: string; data: { id: number } };
    return body.event === 'order.cancelled' && body.data.id === order.id;
  };
  await eventually(async () => receiver.received.filter(cancelled).length >= hooks.length, 15_000, 50);
  // Long enough for a second cancel, had there been one, to be made and delivered.
  await new Promise((r) => setTimeout(r, 1500));

  const history = await server.db
    .selectFrom('order_status_history')
    .select('to_status')
    .where('order_id', '=', order.id)
    .where('to_status', '=', 'CANCEL')
    .execute();
  expect(history).toHaveLength(1);
  const deliveries = await server.db
    .selectFrom('webhook_deliveries')
    .select(['webhook_id', 'event', 'body'])
    .where('webhook_id', 'in', [...hooks])
    .where('event', 'in', ['order.status_changed', 'order.cancelled'])
    .execute();
  const mine = deliveries
    .map((d) => ({ hook: d.webhook_id, event: d.event, body: JSON.parse(d.body) }))
    .filter((d) => d.body.data.id === order.id && d.body.data.status === 'CANCEL');
  for (const hook of hooks) {
    const of = mine.filter((d) => d.hook === hook);
    expect(of.map((d) => d.event).sort()).toEqual(['order.cancelled', 'order.status_changed']);
    expect(of.find((d) => d.event === 'order.cancelled')!.body.data).toEqual({
      id: order.id,
      status: 'CANCEL',
      reason: 'expired',
    });
    expect(of.find((d) => d.event === 'order.status_changed')!.body).toMatchObject({
      status: 'CANCEL',
      data: { id: order.id, status: 'CANCEL' },
    });
  }
  const received = receiver.received.filter(cancelled).map((r) => r.headers['x-webhook-delivery']);
  expect(received).toHaveLength(hooks.length);
  expect(new Set(received).size).toBe(hooks.length);
}
