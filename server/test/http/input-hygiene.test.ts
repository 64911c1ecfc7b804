import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isStorableText } from '../../src/http/validators.js';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
}, 180_000);
afterAll(async () => {
  await server?.close();
});

const client = (overrides: Record<string, unknown>) => ({
  firstName: 'Ana',
  lastName: 'Silva',
  email: 'ana@example.com',
  phone: '+351912345678',
  ...overrides,
});

// Both reproductions this file holds once answered 500: PostgreSQL refuses byte 0x00, and an inherited key passed the
// filter's allow-list and reached Kysely as a column.
describe('text the database cannot store', () => {
  it.each([
    ['a NUL character', 'Ana\u0000'],
    ['a lone high surrogate', 'Ana\ud800'],
    ['a lone low surrogate', '\udc00Ana'],
  ])('is a 400 naming the field when it holds %s', async (_what, firstName) => {
    const before = await server.db.selectFrom('clients').select('id').execute();
    const res = await call(server, 'POST', '/partner/clients', { key: world.keys.branch, body: client({ firstName }) });
    expect(res.status, res.text).toBe(400);
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: ['firstName must not contain NUL (\\u0000) or unpaired surrogate characters'],
      errors: { firstName: 'invalidCharacter' },
    });
    expect(await server.db.selectFrom('clients').select('id').execute()).toHaveLength(before.length);
  });

  it('is refused in staff bodies, nested fields and query strings alike', async () => {
    const branch = await call(server, 'POST', '/admin/branches', {
      token: tokens.superadmin,
      body: { name: 'North\u0000' },
    });
    expect(branch.status, branch.text).toBe(400);
    expect(branch.body.errors).toEqual({ name: 'invalidCharacter' });
    const method = await call(server, 'POST', '/admin/payment-methods', {
      token: tokens.admin1,
      body: {
        name: 'SEPA\u0000',
        kind: 'bank_transfer',
        exchangeId: world.exchanges.A,
        currencyId: world.currencies.EUR,
      },
    });
    expect(method.status, method.text).toBe(400);
    expect(method.body.errors).toEqual({ name: 'invalidCharacter' });
    const query = await call(server, 'GET', '/partner/orders', {
      key: world.keys.branch,
      query: { filter: '{"status":"SUCCESS"}\u0000' },
    });
    expect(query.status, query.text).toBe(400);
    expect(query.body.errors).toEqual({ filter: 'invalidCharacter' });
  });

  it('accepts every other character, paired surrogates (emoji) included', async () => {
    const res = await call(server, 'POST', '/partner/clients', {
      key: world.keys.branch,
      body: client({ firstName: 'Zoë 😀 李', email: 'zoe@example.com' }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.firstName).toBe('Zoë 😀 李');
    expect(isStorableText('a\u0001b\u200b\ufffd')).toBe(true);
    expect(isStorableText('\ud83d\ude00')).toBe(true);
    expect(isStorableText('\ude00\ud83d')).toBe(false);
  });
});

describe('allow-lists look up their own keys only', () => {
  const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

  it.each(['/partner/orders', '/partner/webhooks', '/partner/offers'])(
    'GET %s refuses an inherited filter or sort field with a 400',
    async (path) => {
      for (const field of inherited) {
        const filter = await call(server, 'GET', path, {
          key: world.keys.branch,
          query: { filter: `{"${field}":{"a":1}}` },
        });
        expect(filter.status, `${field}: ${filter.text}`).toBe(400);
        expect(filter.body.errors).toEqual({ [`filter.${field}`]: 'notAllowed' });
        const sort = await call(server, 'GET', path, {
          key: world.keys.branch,
          query: { sort: `[["${field}","ASC"]]` },
        });
        expect(sort.status, `${field}: ${sort.text}`).toBe(400);
        expect(sort.body.errors).toEqual({ [`sort.${field}`]: 'notAllowed' });
      }
    },
  );

  it('refuses them on the back office lists too', async () => {
    for (const path of ['/admin/orders', '/admin/staff', '/admin/branches', '/admin/webhooks', '/admin/exchanges']) {
      const res = await call(server, 'GET', path, {
        token: tokens.superadmin,
        query: { filter: '{"constructor":{"gte":"2025-01-01"}}' },
      });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
    }
  });
});

// Each of these passed validation and failed in PostgreSQL as a 500 (a review of stop 33).
describe('values the columns cannot hold', () => {
  it('a list filter past the integer column, with a NUL escaped in its JSON, or a date outside years 1-9999 is a 400', async () => {
    const cases: [string, 'key' | 'token', string, string][] = [
      ['/partner/orders', 'key', '{"cashboxId":99999999999}', 'filter.cashboxId'],
      ['/partner/orders', 'key', '{"userId":-9007199254740991}', 'filter.userId'],
      ['/partner/orders', 'key', '{"createdAt":{"gte":"0000-01-01"}}', 'filter.createdAt'],
      ['/partner/orders', 'key', '{"createdAt":{"lt":"9999-12-31T23:59:59-12:00"}}', 'filter.createdAt'],
      ['/admin/exchanges', 'token', '{"branchId":4294967296}', 'filter.branchId'],
    ];
    for (const [path, auth, filter, field] of cases) {
      const res = await call(server, 'GET', path, {
        ...(auth === 'key' ? { key: world.keys.branch } : { token: tokens.superadmin }),
        query: { filter },
      });
      expect(res.status, `${path} ${filter}: ${res.text}`).toBe(400);
      expect(res.body.errors).toEqual({ [field]: 'invalidValue' });
    }
    const nul = await call(server, 'GET', '/partner/orders', {
      key: world.keys.branch,
      query: { filter: '{"hashedId":"\\u0000"}' },
    });
    expect(nul.status, nul.text).toBe(400);
    expect(nul.body).toMatchObject({
      message: 'filter.hashedId must not contain NUL (\\u0000) or unpaired surrogate characters',
      errors: { 'filter.hashedId': 'invalidCharacter' },
    });
    const fine = await call(server, 'GET', '/partner/orders', {
      key: world.keys.branch,
      query: { filter: '{"cashboxId":2147483647,"createdAt":{"gte":"0001-01-01T00:00:00Z"}}' },
    });
    expect(fine.status, fine.text).toBe(200);
  });

  it('a date-time with second 60, year 0 or a year past 9999 is a 400 in bodies and query strings', async () => {
    for (const since of [
      '2020-01-01T23:59:60Z',
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00+14:00',
      '9999-12-31T23:59:59-12:00',
    ]) {
      const res = await call(server, 'GET', '/admin/dashboard', { token: tokens.operatorA, query: { since } });
      expect(res.status, `${since}: ${res.text}`).toBe(400);
      expect(res.body.errors).toEqual({ since: 'invalidFormat' });
    }
    const key = await call(server, 'POST', '/api-keys', {
      token: tokens.operatorA,
      body: { name: 'a', type: 'personal', expiresAt: '2030-01-01T23:59:60Z' },
    });
    expect(key.status, key.text).toBe(400);
    expect(key.body.errors).toEqual({ expiresAt: 'invalidFormat' });
    const audit = await call(server, 'GET', '/admin/audit', {
      token: tokens.superadmin,
      query: { from: '0001-01-01T00:00:00+14:00' },
    });
    expect(audit.status, audit.text).toBe(400);
    expect(
      (
        await call(server, 'GET', '/admin/dashboard', {
          token: tokens.operatorA,
          query: { since: '2020-02-29T23:59:59.999+02:00' },
        })
      ).status,
    ).toBe(200);
  });
});
