import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../server/test/helpers/fixture.js';
import { call, type TestServer } from '../../server/test/helpers/server.js';
import type { World } from '../../server/test/helpers/world.js';
import { createClient, type CreateOptions, type PxsClient } from '../src/index.js';

/**
 * createOrder, createClient and createWebhook check `idempotencyKey` before sending: a key the server would refuse
 * (or that fetch cannot even put in a header, such as Cyrillic) rejects with a RangeError naming the rule, never
 * with fetch's TypeError, which the docs reserve for "the server was not reached". The rule is the server's:
 * the real server takes the longest key the SDK lets through and refuses the first one the SDK stops.
 */
let server: TestServer;
let world: World;
beforeAll(async () => {
  ({ server, world } = await startWorld());
});
afterAll(async () => {
  await server?.close();
});

const order = () => ({
  cashbox: { id: world.exchanges.A },
  currency1: { id: world.currencies.USD },
  currency2: { id: world.currencies.EUR },
  operationType: 'offer' as const,
  clientAmount: 25,
});
const creators = (pxs: PxsClient): Record<string, (o: CreateOptions) => Promise<unknown>> => ({
  createOrder: (o) => pxs.createOrder(order(), o),
  createClient: (o) =>
    pxs.createClient(
      { firstName: 'Ada', lastName: 'Lovelace', email: 'ada.key@example.com', phone: '+441234567890' },
      o,
    ),
  createWebhook: (o) => pxs.createWebhook({ url: 'https://hooks.example.com/pxs', events: ['order.created'] }, o),
});

describe('idempotencyKey', () => {
  const refused: [string, unknown, RegExp][] = [
    ['Cyrillic', 'заказ-1', /not printable ASCII/],
    ['Latin-1 (fetch would send it, the server refuses it)', 'café', /not printable ASCII/],
    ['a control character', 'order\n1', /not printable ASCII/],
    ['empty', '', /empty/],
    ['256 characters', 'k'.repeat(256), /256 characters long/],
    ['not a string (from JavaScript)', 42, /a number/],
  ];

  it.each(refused)(
    'refuses %s with a RangeError naming idempotencyKey and the rule, sending nothing',
    async (_name, key, why) => {
      const sent: Request[] = [];
      const pxs = createClient({
        baseUrl: server.url,
        apiKey: world.keys.branch,
        fetch: async (r) => {
          sent.push(r);
          return fetch(r);
        },
      });
      for (const [method, create] of Object.entries(creators(pxs))) {
        // A rejection, like every other failure of a method, not an exception thrown at the call.
        let promise: Promise<unknown> | undefined;
        expect(() => {
          promise = create({ idempotencyKey: key as string });
        }, method).not.toThrow();
        const error = await promise!.then(
          () => 'resolved',
          (e: unknown) => e,
        );
        expect(error, method).toBeInstanceOf(RangeError);
        expect((error as RangeError).message, method).toMatch(
          /^idempotencyKey must be 1 to 255 printable ASCII characters \(U\+0020 to U\+007E\)/,
        );
        expect((error as RangeError).message, method).toMatch(why);
      }
      expect(sent).toEqual([]);
    },
  );

  it('sends the edges of the rule as they are, and the server takes them', async () => {
    const pxs = createClient({ baseUrl: server.url, apiKey: world.keys.branch });
    for (const key of ['k'.repeat(255), ' !~', 'x']) {
      const first = await pxs.createOrder(order(), { idempotencyKey: key });
      // The same key again is a replay of the first answer: the server did take the key.
      expect((await pxs.createOrder(order(), { idempotencyKey: key })).id, JSON.stringify(key)).toBe(first.id);
    }
  });

  it('stops exactly what the server refuses (sent around the SDK: 400)', async () => {
    for (const key of ['k'.repeat(256), 'café']) {
      const res = await call(server, 'POST', '/partner/orders', {
        key: world.keys.branch,
        body: order(),
        headers: { 'idempotency-key': key },
      });
      expect(res.status, key).toBe(400);
    }
  });
});
