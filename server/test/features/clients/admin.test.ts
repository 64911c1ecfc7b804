import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const clients: Record<string, number> = {};

const make = async (key: string, firstName: string, email: string, phone: string) => {
  const res = await call(server, 'POST', '/partner/clients', {
    key,
    body: { firstName, lastName: 'Client', email, phone },
  });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id as number;
};

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  clients.atA = await make(world.keys.operatorA, 'Alda', 'alda@example.com', '+351900000001');
  clients.atB = await make(world.keys.operatorB, 'Bruno', 'bruno@example.com', '+351900000002');
  clients.branch = await make(world.keys.branch, 'Carla', 'carla@example.com', '+351900000003');
  clients.other = await make(world.keys.otherBranch, 'Dora', 'dora@example.com', '+351900000004');
});
afterAll(() => server?.close());

const list = async (who: StaffName, query: Record<string, string | number> = {}) => {
  const res = await call(server, 'GET', '/admin/clients', { token: tokens[who], query });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const ids = (body: { data: { id: number }[] }) => body.data.map((c) => c.id);

describe('GET /admin/clients', () => {
  it('lists the clients in scope, newest first, paged, with their branch', async () => {
    const all = await list('admin1');
    expect(ids(all)).toEqual([clients.branch, clients.atB, clients.atA]);
    expect(all.meta).toEqual({ total: 3, skip: 0, limit: 25, nextCursor: null });
    expect(all.data[0]).toMatchObject({
      firstName: 'Carla',
      lastName: 'Client',
      email: 'carla@example.com',
      phone: '+351900000003',
      branchId: world.branches.b1,
    });
    expect(await list('admin1', { skip: 1, limit: 1 })).toMatchObject({
      data: [{ id: clients.atB }],
      meta: { total: 3, skip: 1, limit: 1, nextCursor: expect.any(String) },
    });
    // A branch key's client is associated with every exchange of the branch; an operator's with its own.
    expect(ids(await list('operatorA'))).toEqual([clients.branch, clients.atA]);
    expect(ids(await list('operatorB'))).toEqual([clients.branch, clients.atB]);
    expect(ids(await list('admin2'))).toEqual([clients.other]);
    expect((await list('superadmin')).meta.total).toBe(4);
  });

  it('matches a text against name, email and phone', async () => {
    expect(ids(await list('admin1', { q: 'BRUNO' }))).toEqual([clients.atB]);
    expect(ids(await list('admin1', { q: 'carla@' }))).toEqual([clients.branch]);
    expect(ids(await list('admin1', { q: '900 000 001' }))).toEqual([clients.atA]);
    expect(ids(await list('admin1', { q: 'dora' }))).toEqual([]);
    expect(ids(await list('admin1', { q: '%' }))).toEqual([]);
  });

  it('needs clients:read, a staff token, and valid paging', async () => {
    const blind = await server.db
      .insertInto('staff_users')
      .values({
        email: 'blind@test.local',
        password_hash: 'x',
        role: 'operator',
        branch_id: world.branches.b1,
        permissions: ['orders:read'],
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = (await server.ctx.tokens.sign(blind.id)).accessToken;
    expect((await call(server, 'GET', '/admin/clients', { token })).status).toBe(403);
    expect((await call(server, 'GET', '/admin/clients')).status).toBe(401);
    expect((await call(server, 'GET', '/admin/clients', { token: tokens.admin1, query: { limit: 101 } })).status).toBe(
      400,
    );
  });
});

describe('GET and PATCH /admin/clients/{id}', () => {
  it("reads and updates a client in scope, with the partner API's rules", async () => {
    expect(
      (await call(server, 'GET', `/admin/clients/${clients.atA}`, { token: tokens.operatorA })).body,
    ).toMatchObject({ id: clients.atA, firstName: 'Alda' });
    const res = await call(server, 'PATCH', `/admin/clients/${clients.atA}`, {
      token: tokens.admin1,
      body: { phone: '+351900000009', firstName: '  Alda Maria ' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ firstName: 'Alda Maria', phone: '+351900000009', branchId: world.branches.b1 });
    const bad = await call(server, 'PATCH', `/admin/clients/${clients.atA}`, {
      token: tokens.admin1,
      body: { phone: '12' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ phone: expect.any(String) });
    const taken = await call(server, 'PATCH', `/admin/clients/${clients.atA}`, {
      token: tokens.admin1,
      body: { email: 'carla@example.com' },
    });
    expect(taken.status).toBe(400);
    expect(taken.body.errors).toEqual({ email: 'alreadyExists' });
  });

  it('is 404 across branches and exchanges, 403 without clients:write', async () => {
    for (const [who, id] of [
      ['admin2', clients.atA],
      ['operatorA', clients.atB],
      ['admin1', clients.other],
    ] as const) {
      expect((await call(server, 'GET', `/admin/clients/${id}`, { token: tokens[who] })).status).toBe(404);
      expect(
        (await call(server, 'PATCH', `/admin/clients/${id}`, { token: tokens[who], body: { firstName: 'X' } })).status,
      ).toBe(404);
    }
    expect(
      (
        await call(server, 'PATCH', `/admin/clients/${clients.atA}`, {
          token: tokens.readOnlyA,
          body: { firstName: 'X' },
        })
      ).status,
    ).toBe(403);
    expect((await call(server, 'GET', `/admin/clients/${clients.atA}`, { token: tokens.readOnlyA })).status).toBe(200);
    expect(
      (await call(server, 'PATCH', `/admin/clients/${clients.atA}`, { token: tokens.admin1, body: {} })).status,
    ).toBe(400);
  });
});
