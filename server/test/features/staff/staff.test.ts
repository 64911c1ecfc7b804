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

const admin = (method: string, path: string, body?: unknown, who: StaffName = 'admin1') =>
  call(server, method, path, { token: tokens[who], body });
const login = (email: string, password: string) => call(server, 'POST', '/auth/login', { body: { email, password } });
const PASSWORD = 'a-long-enough-password';

describe('POST /admin/staff', () => {
  it('lets an admin create an operator of its branch, who can log in and act on its exchanges', async () => {
    const res = await admin('POST', '/admin/staff', {
      email: 'New.Operator@Test.local',
      password: PASSWORD,
      role: 'operator',
      exchangeIds: [world.exchanges.A, world.exchanges.B],
      permissions: ['orders:read'],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      email: 'new.operator@test.local',
      role: 'operator',
      branchId: world.branches.b1,
      exchangeIds: [world.exchanges.A, world.exchanges.B].sort((a, b) => a - b),
      permissions: ['orders:read'],
      isActive: true,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.text).not.toContain('password');
    expect((await login('new.operator@test.local', PASSWORD)).status).toBe(200);
  });

  it('lets a superadmin create staff of any branch, and superadmins', async () => {
    const admin2b = await admin(
      'POST',
      '/admin/staff',
      { email: 'boss2@test.local', password: PASSWORD, role: 'admin', branchId: world.branches.b2 },
      'superadmin',
    );
    expect(admin2b.body).toMatchObject({ role: 'admin', branchId: world.branches.b2 });
    const root = await admin(
      'POST',
      '/admin/staff',
      { email: 'root2@test.local', password: PASSWORD, role: 'superadmin' },
      'superadmin',
    );
    expect(root.body).toMatchObject({ role: 'superadmin', branchId: null, exchangeIds: [] });
  });

  it.each<[string, StaffName, Record<string, unknown>, number, Record<string, string>?]>([
    ['an admin creating a superadmin', 'admin1', { role: 'superadmin' }, 403],
    ['a superadmin with a branch', 'superadmin', { role: 'superadmin', branchId: 1 }, 400, { branchId: 'notAllowed' }],
    [
      'an operator without a branch (by a superadmin)',
      'superadmin',
      { role: 'operator' },
      400,
      { branchId: 'required' },
    ],
    ['an unknown branch', 'superadmin', { role: 'admin', branchId: 999999 }, 400, { branchId: 'notFound' }],
    [
      'an exchange of another branch',
      'admin1',
      { role: 'operator', exchangeIds: [-1] },
      400,
      { exchangeIds: 'notFound' },
    ],
    [
      'a taken email, whatever its case',
      'admin1',
      { role: 'operator', email: 'OperatorA@test.local' },
      400,
      { email: 'alreadyExists' },
    ],
    ['a short password', 'admin1', { role: 'operator', password: 'short' }, 400, { password: 'tooShort' }],
    [
      'an unknown permission',
      'admin1',
      { role: 'operator', permissions: ['everything'] },
      400,
      { 'permissions.0': 'invalidValue' },
    ],
    ['an invalid email', 'admin1', { role: 'operator', email: 'not-an-email' }, 400, { email: 'invalidFormat' }],
  ])('refuses %s', async (_name, who, change, status, errors) => {
    const body: Record<string, unknown> = {
      email: `x${Math.random().toString(36).slice(2)}@test.local`,
      password: PASSWORD,
      ...change,
    };
    if (Array.isArray(change.exchangeIds)) body.exchangeIds = [world.exchanges.C];
    const res = await admin('POST', '/admin/staff', body, who);
    expect(res.status).toBe(status);
    if (errors) expect(res.body.errors).toEqual(errors);
  });
});

describe('GET /admin/staff', () => {
  it('shows an admin the staff of its branch only (no superadmins, no other branch)', async () => {
    const res = await call(server, 'GET', '/admin/staff', { token: tokens.admin1, query: { limit: 100 } });
    const emails = res.body.data.map((s: { email: string }) => s.email);
    expect(emails).toEqual(expect.arrayContaining([world.staff.admin1.email, world.staff.operatorA.email]));
    expect(emails).not.toContain(world.staff.superadmin.email);
    expect(emails).not.toContain(world.staff.admin2.email);
    expect(res.body.data.every((s: { branchId: number }) => s.branchId === world.branches.b1)).toBe(true);
  });

  it('filters by role and state', async () => {
    const res = await call(server, 'GET', '/admin/staff', {
      token: tokens.superadmin,
      query: { filter: '{"role":"superadmin"}' },
    });
    expect(res.body.data.every((s: { role: string }) => s.role === 'superadmin')).toBe(true);
    expect(res.body.meta.total).toBe(res.body.data.length);
  });
});
