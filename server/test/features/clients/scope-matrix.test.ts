import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let seq = 0;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

const body = () => ({
  firstName: 'Ana',
  lastName: 'Silva',
  email: `client.${++seq}@example.com`,
  phone: '+351912345678',
});

/** A client created by the operator of A: branch 1, associated with exchange A only. */
async function clientAtA() {
  const res = await call(server, 'POST', '/partner/clients', { key: world.keys.operatorA, body: body() });
  if (res.status !== 201) throw new Error(res.text);
  return res.body as { id: number; firstName: string; updatedAt: string };
}

const NOT_FOUND = { statusCode: 404, error: 'Not Found', errors: { client: 'notFound' } };

type Key = 'operatorA' | 'operatorB' | 'branch' | 'public' | 'otherBranch' | 'readOnlyA';
const KEYS: Key[] = ['operatorA', 'operatorB', 'branch', 'public', 'otherBranch', 'readOnlyA'];

// Expected status per endpoint for: operator of A, operator of B, branch key, public key, key of another branch,
// and a read-only operator of A. POST creates in the caller's own branch and scope, so any secret key with
// clients:write may call it.
const MATRIX: Record<string, Record<Key, number>> = {
  'POST /partner/clients': {
    operatorA: 201,
    operatorB: 201,
    branch: 201,
    public: 403,
    otherBranch: 201,
    readOnlyA: 403,
  },
  'GET /partner/clients/{id}': {
    operatorA: 200,
    operatorB: 404,
    branch: 200,
    public: 403,
    otherBranch: 404,
    readOnlyA: 200,
  },
  'PATCH /partner/clients/{id}': {
    operatorA: 200,
    operatorB: 404,
    branch: 200,
    public: 403,
    otherBranch: 404,
    readOnlyA: 403,
  },
};
const cases = Object.entries(MATRIX).flatMap(([endpoint, row]) =>
  KEYS.map((key) => [endpoint, key, row[key]] as const),
);

describe('client endpoints × keys', () => {
  it.each(cases)('%s with %s → %i', async (endpoint, key, expected) => {
    const client = await clientAtA();
    const k = world.keys[key];
    if (endpoint === 'POST /partner/clients') {
      const res = await call(server, 'POST', '/partner/clients', { key: k, body: body() });
      expect(res.status).toBe(expected);
      return;
    }
    const res =
      endpoint === 'GET /partner/clients/{id}'
        ? await call(server, 'GET', `/partner/clients/${client.id}`, { key: k })
        : await call(server, 'PATCH', `/partner/clients/${client.id}`, { key: k, body: { firstName: 'Changed' } });
    expect(res.status).toBe(expected);
    if (expected === 404) expect(res.body).toEqual(NOT_FOUND);
    if (expected === 200) expect(res.body.id).toBe(client.id);
    const row = await server.db
      .selectFrom('clients')
      .select('first_name')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    expect(row.first_name).toBe(endpoint.startsWith('PATCH') && expected === 200 ? 'Changed' : 'Ana');
  });

  it('an operator reaches clients sharing an exchange with it; a branch key every client of its branch', async () => {
    const ofB = (await call(server, 'POST', '/partner/clients', { key: world.keys.operatorB, body: body() })).body.id;
    const ofBranch = (await call(server, 'POST', '/partner/clients', { key: world.keys.branch, body: body() })).body.id;
    const get = (id: number, key: string) =>
      call(server, 'GET', `/partner/clients/${id}`, { key }).then((r) => r.status);
    expect([
      await get(ofB, world.keys.operatorA),
      await get(ofB, world.keys.operatorB),
      await get(ofB, world.keys.branch),
    ]).toEqual([404, 200, 200]);
    // Created by the branch key, the client is linked to every exchange of the branch: both operators reach it.
    expect([
      await get(ofBranch, world.keys.operatorA),
      await get(ofBranch, world.keys.operatorB),
      await get(ofBranch, world.keys.otherBranch),
    ]).toEqual([200, 200, 404]);
  });

  it('a superadmin key reaches clients of every branch', async () => {
    const client = await clientAtA();
    const other = (await call(server, 'POST', '/partner/clients', { key: world.keys.otherBranch, body: body() })).body
      .id;
    expect((await call(server, 'GET', `/partner/clients/${client.id}`, { key: world.keys.superadmin })).status).toBe(
      200,
    );
    expect(
      (
        await call(server, 'PATCH', `/partner/clients/${other}`, {
          key: world.keys.superadmin,
          body: { lastName: 'Souza' },
        })
      ).body.lastName,
    ).toBe('Souza');
  });

  it("a duplicate email is judged within the caller's branch only", async () => {
    const email = `shared.${++seq}@example.com`;
    const inB1 = await call(server, 'POST', '/partner/clients', {
      key: world.keys.operatorA,
      body: { ...body(), email },
    });
    const inB2 = await call(server, 'POST', '/partner/clients', {
      key: world.keys.otherBranch,
      body: { ...body(), email },
    });
    expect([inB1.status, inB2.status]).toEqual([201, 201]);
  });
});
