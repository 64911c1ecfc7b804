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

const asSuperadmin = (method: string, path: string, body?: unknown, query?: Record<string, string>) =>
  call(server, method, path, { token: tokens.superadmin, body, query });

describe('branches', () => {
  it('creates a branch that can receive exchanges, staff and keys', async () => {
    const res = await asSuperadmin('POST', '/admin/branches', { name: '  Branch Three ' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Branch Three',
      isSandbox: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const exchange = await asSuperadmin('POST', '/admin/exchanges', { branchId: res.body.id, name: 'Three Central' });
    expect(exchange.status).toBe(201);
    const key = await asSuperadmin('POST', '/api-keys', { name: 'three', type: 'branch', branchId: res.body.id });
    const seen = await call(server, 'GET', '/partner/public/exchanges', { key: key.body.rawKey });
    expect(seen.body.map((e: { id: number }) => e.id)).toEqual([exchange.body.id]);
  });

  it('refuses a duplicate or blank name with 400', async () => {
    expect((await asSuperadmin('POST', '/admin/branches', { name: 'Branch One' })).body.errors).toEqual({
      name: 'alreadyExists',
    });
    expect((await asSuperadmin('POST', '/admin/branches', { name: '   ' })).status).toBe(400);
  });

  it('lists branches, paginated and sortable', async () => {
    const res = await asSuperadmin('GET', '/admin/branches', undefined, { sort: '[["name","DESC"]]', limit: '2' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((b: { name: string }) => b.name)).toEqual(['Branch Two', 'Branch Three']);
    expect(res.body.meta).toEqual({ total: 3, skip: 0, limit: 2, nextCursor: expect.any(String) });
    expect(world.branches.b1).toBeGreaterThan(0);
  });
});
