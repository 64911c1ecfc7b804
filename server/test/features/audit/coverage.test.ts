import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody, placeOrder } from '../orders/support.js';

/*
 * Every staff write operation of the served OpenAPI document (a POST, PUT, PATCH or DELETE behind the staff
 * JWT) is called with a valid request, and must leave exactly the audit row it announces, written with the
 * change: who, what, which entity, and the request's id. An operation without a sample below fails the test,
 * so a new write endpoint cannot ship without its audit row.
 */

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let webhookId: string;
let deliveryId: string;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  // A deactivated webhook of branch 1 with one failed delivery: what the back office reactivates, retries and rotates.
  const hook = await server.db
    .insertInto('webhooks')
    .values({
      branch_id: world.branches.b1,
      url: 'https://receiver.example/hook',
      events: ['offer.updated'],
      secret_key: 'whsec-old-secret-value',
      is_active: false,
      fail_count: 5,
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  webhookId = hook.id;
  const delivery = await server.db
    .insertInto('webhook_deliveries')
    .values({ webhook_id: webhookId, event: 'offer.updated', body: '{}', status: 'failed', attempts: 3 })
    .returning('id')
    .executeTakeFirstOrThrow();
  deliveryId = delivery.id;
});
afterAll(async () => {
  await server?.close();
});

interface Sample {
  /** The path with its parameters filled in (made now, so a sample may first create what it changes). */
  path: () => Promise<string> | string;
  /** The body, made when the sample runs (the world exists only then). */
  body?: () => unknown;
  who?: StaffName;
  action: string;
  /** The id the audit row must name; by default the response body's `id`. */
  entityId?: (res: { body: any }, path: string) => string;
}

const lastSegment = (n: number) => (_res: unknown, path: string) => path.split('/').at(n)!;

/** An active webhook of branch 1, to deactivate or delete. */
async function newHook(): Promise<string> {
  const hook = await server.db
    .insertInto('webhooks')
    .values({
      branch_id: world.branches.b1,
      url: 'https://receiver.example/leaving',
      events: ['offer.updated'],
      secret_key: 'whsec-old-secret-value',
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return hook.id;
}

/** Staff writes that change no data of the service: a log out voids the caller's own sessions, as a login makes one. */
const NOT_AUDITED = ['POST /auth/logout'];

async function newKey(who: StaffName): Promise<string> {
  const res = await call(server, 'POST', '/api-keys', {
    token: tokens[who],
    body: { name: 'to revoke', type: 'personal' },
  });
  return res.body.id;
}

/** A rate source of branch 1, to change or delete. */
async function newRateSource(): Promise<number> {
  const res = await call(server, 'POST', '/admin/rate-sources', {
    token: tokens.admin1,
    body: { name: `to change ${Math.random()}`, kind: 'ecb', url: 'https://rates.example/daily.xml' },
  });
  if (res.status !== 201) throw new Error(`rate source failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** Cash at an exchange, so that a sample can change or move it. */
async function cashDeposit(exchangeId: number, currencyId: number): Promise<void> {
  const res = await call(server, 'POST', `/admin/exchanges/${exchangeId}/cash/${currencyId}/movements`, {
    token: tokens.admin1,
    body: { kind: 'deposit', amount: 10 },
  });
  if (res.status !== 201) throw new Error(`deposit failed: ${res.status} ${res.text}`);
}

const SAMPLES: Record<string, Sample> = {
  'POST /api-keys': {
    path: () => '/api-keys',
    body: () => ({ name: 'audited key', type: 'personal' }),
    who: 'admin1',
    action: 'apiKey.create',
  },
  'DELETE /api-keys/{id}': {
    path: async () => `/api-keys/${await newKey('admin1')}`,
    who: 'admin1',
    action: 'apiKey.revoke',
    entityId: lastSegment(-1),
  },
  'PATCH /api-keys/{id}': {
    path: async () =>
      `/api-keys/${(await call(server, 'POST', '/api-keys', { token: tokens.superadmin, body: { name: 'widget', type: 'public', branchId: world.branches.b1 } })).body.id}`,
    body: () => ({ allowedOrigins: ['https://shop.example'] }),
    action: 'apiKey.update',
    entityId: lastSegment(-1),
  },
  'POST /api-keys/{id}/roll': {
    path: async () => `/api-keys/${await newKey('admin1')}/roll`,
    who: 'admin1',
    action: 'apiKey.roll',
    entityId: lastSegment(-2),
  },
  'POST /admin/api-keys/{id}/roll': {
    path: async () => `/admin/api-keys/${await newKey('admin1')}/roll`,
    who: 'admin1',
    action: 'apiKey.roll',
    entityId: lastSegment(-2),
  },
  'POST /admin/orders/{id}/status': {
    path: async () => `/admin/orders/${(await placeOrder(server, world.keys.branch, orderBody(world))).id}/status`,
    body: () => ({ status: 'CLIENTPAYMENTWAIT', comment: 'paid at the desk' }),
    who: 'operatorA',
    action: 'order.move',
    entityId: lastSegment(-2),
  },
  'POST /admin/branches': {
    path: () => '/admin/branches',
    body: () => ({ name: 'Audited Branch' }),
    action: 'branch.create',
  },
  'PATCH /admin/branches/{id}': {
    path: () => `/admin/branches/${world.branches.b2}`,
    body: () => ({ isSandbox: true }),
    action: 'branch.update',
    entityId: lastSegment(-1),
  },
  'POST /admin/exchanges': {
    path: () => '/admin/exchanges',
    body: () => ({ name: 'Audited Exchange' }),
    who: 'admin1',
    action: 'exchange.create',
  },
  'PATCH /admin/exchanges/{id}': {
    path: () => `/admin/exchanges/${world.exchanges.B}`,
    who: 'admin1',
    action: 'exchange.update.schedule',
    body: () => ({ city: 'Audit City', schedule: [{ dayOfWeek: 1, openTime: '08:00', closeTime: '17:00' }] }),
  },
  'POST /admin/currencies': {
    path: () => '/admin/currencies',
    body: () => ({ ticker: 'AUD', name: 'Australian Dollar', decimals: 2 }),
    action: 'currency.create',
  },
  'POST /admin/exchanges/{id}/cash/{currencyId}/movements': {
    path: () => `/admin/exchanges/${world.exchanges.A}/cash/${world.currencies.EUR}/movements`,
    body: () => ({ kind: 'deposit', amount: 500, reason: 'audited float' }),
    who: 'admin1',
    action: 'cash.deposit',
    entityId: () => `${world.exchanges.A}:${world.currencies.EUR}`,
  },
  'PATCH /admin/exchanges/{id}/cash/{currencyId}': {
    path: async () => {
      await cashDeposit(world.exchanges.A, world.currencies.USD);
      return `/admin/exchanges/${world.exchanges.A}/cash/${world.currencies.USD}`;
    },
    body: () => ({ lowWatermark: 50 }),
    who: 'admin1',
    action: 'cash.watermark',
    entityId: () => `${world.exchanges.A}:${world.currencies.USD}`,
  },
  'POST /admin/cash/transfers': {
    path: async () => {
      await cashDeposit(world.exchanges.B, world.currencies.BTC);
      return '/admin/cash/transfers';
    },
    body: () => ({
      fromExchangeId: world.exchanges.B,
      toExchangeId: world.exchanges.A,
      currencyId: world.currencies.BTC,
      amount: 1,
    }),
    who: 'admin1',
    action: 'cash.transfer',
    entityId: () => `${world.exchanges.B}:${world.currencies.BTC}`,
  },
  'PATCH /admin/currencies/{id}': {
    path: () => `/admin/currencies/${world.currencies.JPY}`,
    body: () => ({ name: 'Japanese Yen' }),
    action: 'currency.update',
  },
  'POST /admin/rate-sources': {
    path: () => '/admin/rate-sources',
    body: () => ({ name: 'Audited source', kind: 'json', url: 'https://rates.example/rates.json' }),
    who: 'admin1',
    action: 'rateSource.create',
  },
  'PATCH /admin/rate-sources/{id}': {
    path: async () => `/admin/rate-sources/${await newRateSource()}`,
    body: () => ({ intervalSeconds: 120 }),
    who: 'admin1',
    action: 'rateSource.update',
    entityId: lastSegment(-1),
  },
  'DELETE /admin/rate-sources/{id}': {
    path: async () => `/admin/rate-sources/${await newRateSource()}`,
    who: 'admin1',
    action: 'rateSource.delete',
    entityId: lastSegment(-1),
  },
  'POST /admin/offers': {
    path: () => '/admin/offers',
    who: 'admin1',
    action: 'offer.create',
    body: () => ({
      exchangeId: world.exchanges.B,
      currency1Id: world.currencies.BTC,
      currency2Id: world.currencies.EUR,
      rate: '59000.5',
      maxAmount: '2',
    }),
  },
  'PATCH /admin/offers/{id}': {
    path: () => `/admin/offers/${world.offers.aUsdEur}`,
    body: () => ({ rate: '0.9216' }),
    who: 'admin1',
    action: 'offer.update',
  },
  'POST /admin/payment-methods': {
    path: () => '/admin/payment-methods',
    body: () => ({ name: 'Audited transfer', kind: 'card' }),
    who: 'admin1',
    action: 'paymentMethod.create',
  },
  'PATCH /admin/payment-methods/{id}': {
    path: async () =>
      `/admin/payment-methods/${(await call(server, 'POST', '/admin/payment-methods', { token: tokens.admin1, body: { name: 'To rename' } })).body.id}`,
    body: () => ({ name: 'Renamed' }),
    who: 'admin1',
    action: 'paymentMethod.update',
    entityId: lastSegment(-1),
  },
  'POST /admin/staff': {
    path: () => '/admin/staff',
    who: 'admin1',
    action: 'staff.create',
    body: () => ({
      email: 'audited@test.local',
      password: 'a-long-enough-password',
      role: 'operator',
      exchangeIds: [world.exchanges.A],
    }),
  },
  'PATCH /admin/staff/{id}': {
    path: () => `/admin/staff/${world.staff.operatorB.id}`,
    body: () => ({ password: 'another-long-password' }),
    who: 'admin1',
    action: 'staff.update',
  },
  'PATCH /admin/clients/{id}': {
    path: async () => {
      const client = await call(server, 'POST', '/partner/clients', {
        key: world.keys.operatorA,
        body: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@client.example', phone: '+441234567890' },
      });
      return `/admin/clients/${client.body.id}`;
    },
    body: () => ({ phone: '+441234567891' }),
    who: 'operatorA',
    action: 'client.update',
  },
  'DELETE /admin/api-keys/{id}': {
    path: async () => `/admin/api-keys/${await newKey('operatorA')}`,
    who: 'admin1',
    action: 'apiKey.revoke',
    entityId: lastSegment(-1),
  },
  'POST /admin/webhooks/{id}/reactivate': {
    path: () => `/admin/webhooks/${webhookId}/reactivate`,
    who: 'admin1',
    action: 'webhook.reactivate',
  },
  'POST /admin/webhooks/{id}/deliveries/{deliveryId}/retry': {
    path: () => `/admin/webhooks/${webhookId}/deliveries/${deliveryId}/retry`,
    who: 'admin1',
    action: 'webhook.retryDelivery',
    entityId: () => webhookId,
  },
  'POST /admin/webhooks/{id}/rotate-secret': {
    path: () => `/admin/webhooks/${webhookId}/rotate-secret`,
    who: 'admin1',
    action: 'webhook.rotateSecret',
  },
  'POST /admin/webhooks/{id}/deactivate': {
    path: async () => `/admin/webhooks/${await newHook()}/deactivate`,
    who: 'admin1',
    action: 'webhook.deactivate',
  },
  'DELETE /admin/webhooks/{id}': {
    path: async () => `/admin/webhooks/${await newHook()}`,
    who: 'admin1',
    action: 'webhook.delete',
    entityId: lastSegment(-1),
  },
};

/** The staff write operations the server documents, as `METHOD /path` under /api/v1. */
async function staffWrites(): Promise<string[]> {
  const doc = (await call(server, 'GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
  };
  const out: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (!op.security?.some((s) => 'staffJwt' in s)) continue;
      const name = `${method.toUpperCase()} ${path.replace(/^\/api\/v1/, '')}`;
      if (!NOT_AUDITED.includes(name)) out.push(name);
    }
  }
  return out.sort();
}

describe('the audit log covers every staff write operation', () => {
  it('has a sample request for each documented staff write, and none for an operation that is gone', async () => {
    const ops = await staffWrites();
    expect(ops.length).toBeGreaterThan(10);
    expect(ops.filter((op) => !SAMPLES[op])).toEqual([]);
    expect(Object.keys(SAMPLES).filter((op) => !ops.includes(op))).toEqual([]);
  });

  it.each(Object.keys(SAMPLES))("%s writes its audit row in the change's transaction", async (op) => {
    const sample = SAMPLES[op];
    const who = sample.who ?? 'superadmin';
    const [method] = op.split(' ');
    const path = await sample.path();
    const lastBefore =
      (
        await server.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0;
    const res = await call(server, method, path, { token: tokens[who], body: sample.body?.() });
    expect(res.status, res.text).toBeLessThan(300);
    const rows = await server.db.selectFrom('audit_log').selectAll().where('id', '>', Number(lastBefore)).execute();
    expect(rows.map((r) => r.action)).toEqual([sample.action]);
    const row = rows[0];
    expect(row).toMatchObject({
      actor: 'staff',
      staff_user_id: world.staff[who].id,
      request_id: res.headers.get('x-request-id'),
      ip: '127.0.0.1',
    });
    expect(row.entity_id).toBe(String(sample.entityId ? sample.entityId(res, path) : res.body.id));
    expect(row.after).not.toBeNull();
    // Never a secret, a raw key, a hash or a password: neither those sent nor those returned nor those stored.
    const hashes = (await server.db.selectFrom('staff_users').select('password_hash').execute()).map(
      (r) => r.password_hash,
    );
    const keyHashes = (await server.db.selectFrom('api_keys').select('key_hash').execute()).map((r) => r.key_hash);
    const secrets = [
      ...hashes,
      ...keyHashes,
      'whsec-old-secret-value',
      (sample.body?.() as { password?: string })?.password,
      res.body?.rawKey,
      res.body?.secret,
    ];
    const logged = JSON.stringify([row.before, row.after]);
    for (const secret of secrets.filter(Boolean)) expect(logged).not.toContain(secret);
  });
});
