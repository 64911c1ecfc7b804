import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const create = (body: Record<string, unknown>, who: StaffName = 'superadmin') =>
  call(server, 'POST', '/api-keys', { token: tokens[who], body });
const patch = (id: string, body: unknown, who: StaffName = 'superadmin') =>
  call(server, 'PATCH', `/api-keys/${id}`, { token: tokens[who], body });
const rates = (key: string, origin?: string) =>
  call(server, 'GET', '/partner/public/rates', { key, headers: origin ? { origin } : {} });
const publicKey = (allowedOrigins?: string[]) =>
  create({
    name: 'widget',
    type: 'public',
    branchId: world.branches.b1,
    ...(allowedOrigins ? { allowedOrigins } : {}),
  });

describe('allowed origins of a public key: setting them', () => {
  it('takes them at creation, as browsers write an origin (lower-case host, no default port, no slash), without duplicates', async () => {
    const res = await publicKey([
      'HTTPS://Shop.Example.com:443/',
      'https://shop.example.com',
      'http://localhost:8080',
      'https://bücher.example',
    ]);
    expect(res.status).toBe(201);
    expect(res.body.allowedOrigins).toEqual([
      'https://shop.example.com',
      'http://localhost:8080',
      'https://xn--bcher-kva.example',
    ]);
    const listed = await call(server, 'GET', '/api-keys', { token: tokens.superadmin });
    expect(listed.body.find((k: { id: string }) => k.id === res.body.id).allowedOrigins).toEqual(
      res.body.allowedOrigins,
    );
  });

  it('is empty (any origin) when not given, and for every secret key', async () => {
    expect((await publicKey()).body.allowedOrigins).toEqual([]);
    expect((await create({ name: 'b', type: 'branch', branchId: world.branches.b1 })).body.allowedOrigins).toEqual([]);
  });

  it.each([
    'shop.example.com',
    'https://shop.example.com/widget',
    'ftp://shop.example.com',
    'https://shop.example.com?x=1',
    'https://user@shop.example.com',
    'https://shop.example.com#top',
    'https://',
    'javascript:alert(1)',
    'null',
  ])('refuses %j with 400 naming it', async (value) => {
    const res = await publicKey(['https://ok.example', value]);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ allowedOrigins: 'invalid' });
    expect(res.body.message).toContain(`"${value}" is not an origin`);
  });

  it('refuses more than 20 origins, and origins on a secret key', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example`);
    expect((await publicKey(many)).status).toBe(400);
    const res = await create({
      name: 'b',
      type: 'branch',
      branchId: world.branches.b1,
      allowedOrigins: ['https://a.example'],
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ allowedOrigins: 'notAllowed' });
  });

  it('PATCH /api-keys/{id} replaces them for the owner; another staff user gets 404, a secret key 400', async () => {
    const key = (await publicKey()).body;
    const res = await patch(key.id, { allowedOrigins: ['https://Partner.example'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: key.id, type: 'public', allowedOrigins: ['https://partner.example'] });
    expect(res.body.rawKey).toBeUndefined();
    expect((await patch(key.id, { allowedOrigins: ['https://x.example'] }, 'admin1')).status).toBe(404);
    expect((await patch('00000000-0000-4000-8000-000000000000', { allowedOrigins: [] })).status).toBe(404);
    const invalid = await patch(key.id, { allowedOrigins: ['https://x.example/path'] });
    expect(invalid.status).toBe(400);
    expect((await patch(key.id, {})).status).toBe(400);
    const branchKey = (await create({ name: 'b', type: 'branch', branchId: world.branches.b1 })).body;
    const secret = await patch(branchKey.id, { allowedOrigins: ['https://a.example'] });
    expect(secret.status).toBe(400);
    expect(secret.body.errors).toEqual({ allowedOrigins: 'notAllowed' });
    expect((await call(server, 'PATCH', `/api-keys/${key.id}`, { body: { allowedOrigins: [] } })).status).toBe(401);
  });
});

describe('allowed origins of a public key: enforcing them', () => {
  it('answers 403 naming the origin to a page of another origin; the listed origins and requests without Origin pass', async () => {
    const key = (await publicKey(['https://partner.example', 'http://localhost:8080'])).body;
    expect((await rates(key.rawKey, 'https://partner.example')).status).toBe(200);
    expect((await rates(key.rawKey, 'http://localhost:8080')).status).toBe(200);
    expect((await rates(key.rawKey)).status).toBe(200);
    const res = await rates(key.rawKey, 'https://copycat.example');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: 'Origin https://copycat.example is not allowed to use this key',
    });
    // An origin differs by scheme and port too.
    expect((await rates(key.rawKey, 'http://partner.example')).status).toBe(403);
    expect((await rates(key.rawKey, 'http://localhost:8081')).status).toBe(403);
    const estimate = await call(server, 'POST', '/partner/public/estimate', {
      key: key.rawKey,
      headers: { origin: 'null' },
      body: {
        exchangeId: world.exchanges.A,
        sourceCurrencyId: world.currencies.USD,
        destCurrencyId: world.currencies.EUR,
        amount: 100,
      },
    });
    expect(estimate.status).toBe(403);
    expect(estimate.body.message).toBe('Origin null is not allowed to use this key');
  });

  it('applies a change at once, though the key was just verified and cached, and an empty list opens it again', async () => {
    const key = (await publicKey()).body;
    expect((await rates(key.rawKey, 'https://anywhere.example')).status).toBe(200);
    await patch(key.id, { allowedOrigins: ['https://partner.example'] });
    expect((await rates(key.rawKey, 'https://anywhere.example')).status).toBe(403);
    await patch(key.id, { allowedOrigins: [] });
    expect((await rates(key.rawKey, 'https://anywhere.example')).status).toBe(200);
  });
});
