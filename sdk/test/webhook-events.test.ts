import { readFileSync } from 'node:fs';
// ajv and ajv-formats are the server's dependencies (the workspace's node_modules), as the server's test helpers are.
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../server/test/helpers/fixture.js';
import { call, type TestServer } from '../../server/test/helpers/server.js';
import type { StaffName } from '../../server/test/helpers/staff.js';
import type { World } from '../../server/test/helpers/world.js';
import { eventually, startReceiver, worker, type Receiver } from '../../server/test/features/webhooks/support.js';
import { startExpiry } from '../../server/src/features/orders/expiry.js';
import { createClient, verifyWebhook, type PxsClient, type WebhookEvent } from '../src/index.js';

/**
 * Real deliveries of every event, of real and of sandbox orders, checked against the webhook schemas of
 * sdk/openapi.json (what the SDK's WebhookEvent is generated from), closed: a property a real body carries that the
 * document does not declare fails, as does a declared property that no real body carries.
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let pxs: PxsClient;
let receiver: Receiver;
let stopWorker: (() => Promise<void>) | undefined;

type Schema = { [key: string]: unknown };
const doc = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
/** Each webhook's body schema, by event name, as the document's `webhooks` name them. */
const schemaOf: Record<string, Schema> = Object.fromEntries(
  Object.entries<{ post: { requestBody: { content: { 'application/json': { schema: { $ref: string } } } } } }>(
    doc.webhooks,
  ).map(([event, item]) => [
    event,
    doc.components.schemas[item.post.requestBody.content['application/json'].schema.$ref.split('/').at(-1)!],
  ]),
);

/** A copy of the schema in which every object takes only the properties it declares (examples dropped: they are not checked here). */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'examples') continue;
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([name, s]) => [name, closed(s)]))
        : closed(value);
  }
  if (out.type === 'object' && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

const ajv = addFormats.default(new Ajv2020({ allErrors: true, strict: true }));
function errorsOf(schema: Schema, body: unknown): ErrorObject[] {
  const validate = ajv.compile(closed(schema) as Schema);
  return validate(body) ? [] : (validate.errors ?? []);
}

/** The property paths a schema declares (`data.sandbox`), optional ones included. */
function declared(schema: Schema, prefix = ''): string[] {
  return Object.entries((schema.properties ?? {}) as Record<string, Schema>).flatMap(([name, s]) => [
    `${prefix}${name}`,
    ...declared(s, `${prefix}${name}.`),
  ]);
}

/** The property paths a body carries. */
function carried(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([name, v]) => [`${prefix}${name}`, ...carried(v, `${prefix}${name}.`)]);
}

/** The schema without one declared property (a path such as `data.sandbox`): the document as it was before it declared it. */
function without(schema: Schema, path: string): Schema {
  const copy = structuredClone(schema);
  const names = path.split('.');
  let at = copy;
  for (const name of names.slice(0, -1)) at = (at.properties as Record<string, Schema>)[name];
  const last = names.at(-1)!;
  delete (at.properties as Record<string, Schema>)[last];
  at.required = ((at.required ?? []) as string[]).filter((r) => r !== last);
  return copy;
}

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  pxs = createClient({ baseUrl: server.url, apiKey: world.keys.branch });
  receiver = await startReceiver();
  const w = await worker(server);
  stopWorker = () => w.stop();
});
afterAll(async () => {
  await stopWorker?.();
  await receiver?.close();
  await server?.close();
});

describe('webhook bodies against the document', () => {
  it('every real delivery, of each event, of real and sandbox orders, is exactly what its schema declares', async () => {
    const hook = await pxs.createWebhook({
      url: receiver.url,
      events: ['order.created', 'order.status_changed', 'order.cancelled', 'offer.updated'],
    });
    const order = {
      cashbox: { id: world.exchanges.A },
      currency1: { id: world.currencies.USD },
      currency2: { id: world.currencies.EUR },
      operationType: 'offer' as const,
      clientAmount: 50,
    };
    const setSandbox = async (isSandbox: boolean) => {
      const res = await call(server, 'PATCH', `/admin/branches/${world.branches.b1}`, {
        token: tokens.superadmin,
        body: { isSandbox },
      });
      expect(res.status, res.text).toBe(200);
    };

    // A real order, cancelled by the partner: order.created, order.status_changed and order.cancelled.
    const real = await pxs.createOrder(order);
    await pxs.cancelOrder(real.id);
    // An offer changed by staff (to the values it has): offer.updated.
    const offer = await call(server, 'PATCH', `/admin/offers/${world.offers.aUsdEur}`, {
      token: tokens.admin1,
      body: { isActive: true },
    });
    expect(offer.status, offer.text).toBe(200);
    // A sandbox order moved by the partner: the same order events, with data.sandbox.
    await setSandbox(true);
    try {
      const test = await pxs.createOrder(order);
      await pxs.moveSandboxOrder(test.id, { status: 'CLIENTPAYMENTWAIT' });
      await pxs.moveSandboxOrder(test.id, { status: 'CANCEL' });
    } finally {
      await setSandbox(false);
    }

    // A real order left unpaid past its exchange's payment window: the system's cancel, with data.reason.
    const window = await call(server, 'PATCH', `/admin/exchanges/${world.exchanges.A}`, {
      token: tokens.admin1,
      body: { paymentWindowSeconds: 1 },
    });
    expect(window.status, window.text).toBe(200);
    const expiry = startExpiry(server.ctx, { pollMs: 100 });
    try {
      const unpaid = await pxs.createOrder(order);
      await eventually(async () => (await pxs.getOrder(unpaid.id)).status === 'CANCEL', 10_000, 100);
    } finally {
      await expiry.stop();
    }

    const got = await receiver.waitFor(11, 30_000);
    const events: WebhookEvent[] = await Promise.all(got.map((d) => verifyWebhook(d.body, d.headers, hook.secretKey)));
    // The fields this issue added, read through the generated types (no cast): they fail to compile without them.
    const ids: string[] = events.map((e) => e.id);
    const marks: (true | undefined)[] = events.flatMap((e) => (e.event === 'offer.updated' ? [] : [e.data.sandbox]));
    expect(new Set(ids).size).toBe(11);
    expect(marks.filter((m) => m === true)).toHaveLength(4);

    expect(Object.keys(schemaOf).sort()).toEqual([
      'offer.updated',
      'order.cancelled',
      'order.created',
      'order.status_changed',
    ]);
    const seen = new Map<string, Set<string>>();
    for (const body of got.map((d) => JSON.parse(d.body) as { event: string })) {
      const schema = schemaOf[body.event];
      expect(schema, body.event).toBeDefined();
      expect(errorsOf(schema, body), JSON.stringify(body)).toEqual([]);
      for (const path of carried(body)) seen.set(body.event, (seen.get(body.event) ?? new Set()).add(path));
    }
    // Both ways: each event was delivered, and each property the document declares was in a real body.
    for (const [event, schema] of Object.entries(schemaOf))
      expect([...(seen.get(event) ?? [])].sort(), event).toEqual(declared(schema).sort());
  });

  it('refuses a real body carrying a property the schema does not declare: `id`, and `data.sandbox`, undeclared as they once were', async () => {
    const created = receiver.received.map((d) => JSON.parse(d.body)).filter((b) => b.event === 'order.created');
    const sandboxed = created.find((b) => b.data.sandbox === true);
    expect(sandboxed).toBeDefined();
    const schema = schemaOf['order.created'];
    expect(errorsOf(schema, sandboxed)).toEqual([]);
    expect(errorsOf(without(schema, 'id'), sandboxed)).toEqual([
      expect.objectContaining({
        instancePath: '',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'id' },
      }),
    ]);
    expect(errorsOf(without(schema, 'data.sandbox'), sandboxed)).toEqual([
      expect.objectContaining({
        instancePath: '/data',
        keyword: 'additionalProperties',
        params: { additionalProperty: 'sandbox' },
      }),
    ]);
  });
});
