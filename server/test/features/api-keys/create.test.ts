import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAW_KEY_NOTE } from '../../../src/features/api-keys/issue.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const create = (who: StaffName, body: Record<string, unknown>) =>
  call(server, 'POST', '/api-keys', { token: tokens[who], body });
const PREFIX = { personal: 'sk_personal_', branch: 'sk_branch_', public: 'pk_' } as const;

describe('POST /api-keys: who may create which type', () => {
  it.each(['personal', 'branch', 'public'] as const)(
    'a superadmin creates a %s key; the raw key comes once, with its note',
    async (type) => {
      const res = await create('superadmin', {
        name: `my ${type} key`,
        type,
        ...(type === 'personal' ? {} : { branchId: world.branches.b1 }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: `my ${type} key`,
        type,
        keyPrefix: res.body.rawKey.slice(0, 20),
        branchId: type === 'personal' ? null : world.branches.b1,
        isActive: true,
        lastUsedAt: null,
        expiresAt: null,
        replacedBy: null,
        allowedOrigins: [],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        rawKey: expect.stringMatching(new RegExp(`^${PREFIX[type]}[A-Za-z0-9]{32}$`)),
        note: RAW_KEY_NOTE,
      });
    },
  );

  it.each(['admin1', 'operatorA', 'readOnlyA'] as const)('%s creates a personal key', async (who) => {
    const res = await create(who, { name: 'mine', type: 'personal' });
    expect(res.status).toBe(201);
    expect(res.body.rawKey).toMatch(/^sk_personal_/);
  });

  it.each([
    ['admin1', 'branch'],
    ['admin1', 'public'],
    ['operatorA', 'branch'],
    ['operatorA', 'public'],
    ['admin2', 'branch'],
  ] as const)('%s asking for a %s key gets 403', async (who, type) => {
    const res = await create(who, { name: 'nope', type, branchId: world.branches.b1 });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ statusCode: 403, message: `Only a superadmin can create a ${type} key` });
  });

  it('answers 401 without a staff token, and to an API key used as one', async () => {
    expect((await call(server, 'POST', '/api-keys', { body: { name: 'x', type: 'personal' } })).status).toBe(401);
    expect(
      (await call(server, 'POST', '/api-keys', { key: world.keys.superadmin, body: { name: 'x', type: 'personal' } }))
        .status,
    ).toBe(401);
  });
});

describe('POST /api-keys: validation', () => {
  it.each([
    ['branchId missing for a branch key', { name: 'k', type: 'branch' }, { branchId: 'required' }],
    ['branchId missing for a public key', { name: 'k', type: 'public' }, { branchId: 'required' }],
    ['branchId given for a personal key', { name: 'k', type: 'personal', branchId: 1 }, { branchId: 'notAllowed' }],
    ['an unknown branch', { name: 'k', type: 'branch', branchId: 999999 }, { branchId: 'notFound' }],
    [
      'expiresAt in the past',
      { name: 'k', type: 'personal', expiresAt: '2020-01-01T00:00:00Z' },
      { expiresAt: 'inPast' },
    ],
    [
      'expiresAt not a date-time',
      { name: 'k', type: 'personal', expiresAt: 'tomorrow' },
      { expiresAt: 'invalidFormat' },
    ],
    ['no name', { type: 'personal' }, { name: 'required' }],
    ['a blank name', { name: '   ', type: 'personal' }, { name: 'tooShort' }],
    ['an unknown type', { name: 'k', type: 'master' }, { type: 'invalidValue' }],
    ['an unknown field', { name: 'k', type: 'personal', scope: 'all' }, { scope: 'notAllowed' }],
  ])('%s is a 400', async (_name, body, errors) => {
    const res = await create('superadmin', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errors });
  });
});

describe('a key created through the API', () => {
  const offerExchanges = async (key: string) => {
    const res = await call(server, 'GET', '/partner/offers', { key, query: { limit: 100 } });
    expect(res.status).toBe(200);
    return [...new Set(res.body.data.map((o: { exchange: { id: number } }) => o.exchange.id))].sort();
  };

  it('works at once against the partner API, within its branch', async () => {
    const b1 = await create('superadmin', { name: 'b1 integration', type: 'branch', branchId: world.branches.b1 });
    const b2 = await create('superadmin', { name: 'b2 integration', type: 'branch', branchId: world.branches.b2 });
    expect(await offerExchanges(b1.body.rawKey)).toEqual(
      [world.exchanges.A, world.exchanges.B, world.exchanges.X].sort(),
    );
    expect(await offerExchanges(b2.body.rawKey)).toEqual([world.exchanges.C]);
  });

  it('as a public key reads public data and may not write', async () => {
    const pk = await create('superadmin', { name: 'site widget', type: 'public', branchId: world.branches.b1 });
    expect((await call(server, 'GET', '/partner/public/exchanges', { key: pk.body.rawKey })).status).toBe(200);
    expect((await call(server, 'GET', '/partner/offers', { key: pk.body.rawKey })).status).toBe(403);
  });

  it("as a personal key acts with its staff user's branch", async () => {
    const personal = await create('operatorA', { name: 'operator tool', type: 'personal' });
    expect(await offerExchanges(personal.body.rawKey)).toEqual(
      [world.exchanges.A, world.exchanges.B, world.exchanges.X].sort(),
    );
  });

  it("stops working when it expires, with the contract's message", async () => {
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const res = await create('superadmin', {
      name: 'short-lived',
      type: 'branch',
      branchId: world.branches.b1,
      expiresAt,
    });
    expect(res.body.expiresAt).toBe(expiresAt);
    expect((await call(server, 'GET', '/partner/public/exchanges', { key: res.body.rawKey })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));
    const expired = await call(server, 'GET', '/partner/public/exchanges', { key: res.body.rawKey });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ statusCode: 401, message: 'API key has expired' });
  });
});
