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

const client = (overrides: Record<string, unknown>) => ({ firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', phone: '+351912345678', ...overrides });

// Both reproductions of issue 20 answered 500: PostgreSQL refuses byte 0x00, and an inherited key passed the
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
      statusCode: 400, error: 'Bad Request',
      message: ['firstName must not contain NUL (\\u0000) or unpaired surrogate characters'],
      errors: { firstName: 'invalidCharacter' },
    });
    expect(await server.db.selectFrom('clients').select('id').execute()).toHaveLength(before.length);
  });

  it('is refused in staff bodies, nested fields and query strings alike', async () => {
    const branch = await call(server, 'POST', '/admin/branches', { token: tokens.superadmin, body: { name: 'North\u0000' } });
    expect(branch.status, branch.text).toBe(400);
    expect(branch.body.errors).toEqual({ name: 'invalidCharacter' });
    const method = await call(server, 'POST', '/admin/payment-methods', {
      token: tokens.admin1, body: { name: 'SEPA\u0000', kind: 'bank_transfer', exchangeId: world.exchanges.A, currencyId: world.currencies.EUR },
    });
    expect(method.status, method.text).toBe(400);
    expect(method.body.errors).toEqual({ name: 'invalidCharacter' });
    const query = await call(server, 'GET', '/partner/orders', { key: world.keys.branch, query: { filter: '{"status":"SUCCESS"}\u0000' } });
    expect(query.status, query.text).toBe(400);
    expect(query.body.errors).toEqual({ filter: 'invalidCharacter' });
  });

  it('accepts every other character, paired surrogates (emoji) included', async () => {
    const res = await call(server, 'POST', '/partner/clients', { key: world.keys.branch, body: client({ firstName: 'Zoë 😀 李', email: 'zoe@example.com' }) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.firstName).toBe('Zoë 😀 李');
    expect(isStorableText('a\u0001b\u200b\ufffd')).toBe(true);
    expect(isStorableText('\ud83d\ude00')).toBe(true);
    expect(isStorableText('\ude00\ud83d')).toBe(false);
  });
});

describe('allow-lists look up their own keys only', () => {
  const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

  it.each(['/partner/orders', '/partner/webhooks', '/partner/offers'])('GET %s refuses an inherited filter or sort field with a 400', async (path) => {
    for (const field of inherited) {
      const filter = await call(server, 'GET', path, { key: world.keys.branch, query: { filter: `{"${field}":{"a":1}}` } });
      expect(filter.status, `${field}: ${filter.text}`).toBe(400);
      expect(filter.body.errors).toEqual({ [`filter.${field}`]: 'notAllowed' });
      const sort = await call(server, 'GET', path, { key: world.keys.branch, query: { sort: `[["${field}","ASC"]]` } });
      expect(sort.status, `${field}: ${sort.text}`).toBe(400);
      expect(sort.body.errors).toEqual({ [`sort.${field}`]: 'notAllowed' });
    }
  });

  it('refuses them on the back office lists too', async () => {
    for (const path of ['/admin/orders', '/admin/staff', '/admin/branches', '/admin/webhooks', '/admin/exchanges']) {
      const res = await call(server, 'GET', path, { token: tokens.superadmin, query: { filter: '{"constructor":{"gte":"2025-01-01"}}' } });
      expect(res.status, `${path}: ${res.text}`).toBe(400);
    }
  });
});
