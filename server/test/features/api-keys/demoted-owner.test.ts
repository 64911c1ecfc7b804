import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../src/features/api-keys/issue.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import { staffToken, type StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';

/**
 * Branch and public keys belong to their branch, not to the superadmin who created them: once that superadmin is
 * demoted, the self-service routes (/api-keys) reach only its personal keys, and the branch's keys are managed by
 * a superadmin (or, within admin-routes.ts's rules, by the branch's admin).
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
let sa2: { id: number; token: string };
let keys: Record<'branch' | 'public' | 'personal', { id: string; rawKey: string }>;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  const created = await call(server, 'POST', '/admin/staff', {
    token: tokens.superadmin,
    body: { email: 'sa2@test.local', password: 'another-long-password', role: 'superadmin' },
  });
  expect(created.status, created.text).toBe(201);
  sa2 = { id: created.body.id, token: await staffToken(server, created.body.id) };
  const create = async (body: Record<string, unknown>) => {
    const res = await call(server, 'POST', '/api-keys', { token: sa2.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body as { id: string; rawKey: string };
  };
  keys = {
    branch: await create({ name: 'sa2 branch', type: 'branch', branchId: world.branches.b2 }),
    public: await create({
      name: 'sa2 public',
      type: 'public',
      branchId: world.branches.b2,
      allowedOrigins: ['https://shop.example'],
    }),
    personal: await create({ name: 'sa2 personal', type: 'personal' }),
  };
});
afterAll(() => server?.close());

const demote = async (body: Record<string, unknown>) => {
  const res = await call(server, 'PATCH', `/admin/staff/${sa2.id}`, { token: tokens.superadmin, body });
  expect(res.status, res.text).toBe(200);
};
const asSa2 = (method: string, path: string, body?: unknown) => call(server, method, path, { token: sa2.token, body });
/** The key as every branch's admin sees it: untouched means active, not rolled, with its origins. */
const keyState = async (id: string) => {
  const res = await call(server, 'GET', '/admin/api-keys', { token: tokens.superadmin, query: { limit: 100 } });
  return res.body.data.find((k: { id: string }) => k.id === id);
};

describe('a superadmin demoted after creating branch and public keys', () => {
  it('while a superadmin, lists and reaches them', async () => {
    const list = await asSa2('GET', '/api-keys');
    expect(list.body.map((k: { name: string }) => k.name).sort()).toEqual(['sa2 branch', 'sa2 personal', 'sa2 public']);
  });

  it.each([
    ['an operator of another branch', 'operator', 'b1'],
    ["an admin of the keys' branch", 'admin', 'b2'],
  ] as const)(
    'as %s, no longer lists, rolls, revokes or re-origins them through /api-keys (404)',
    async (_name, role, branch) => {
      await demote({ role, branchId: world.branches[branch] });
      const list = await asSa2('GET', '/api-keys');
      expect(list.status).toBe(200);
      expect(list.body.map((k: { name: string }) => k.name)).toEqual(['sa2 personal']);

      for (const key of [keys.branch, keys.public]) {
        const rolled = await asSa2('POST', `/api-keys/${key.id}/roll`);
        expect(rolled.status, rolled.text).toBe(404);
        expect(rolled.text).not.toMatch(/sk_branch_|pk_/);
        expect((await asSa2('PATCH', `/api-keys/${key.id}`, { allowedOrigins: ['https://evil.example'] })).status).toBe(
          404,
        );
        expect((await asSa2('DELETE', `/api-keys/${key.id}`)).status).toBe(404);
      }
      expect(await keyState(keys.branch.id)).toMatchObject({ isActive: true, replacedBy: null });
      expect(await keyState(keys.public.id)).toMatchObject({
        isActive: true,
        replacedBy: null,
        allowedOrigins: ['https://shop.example'],
      });
      expect((await call(server, 'GET', '/partner/offers', { key: keys.branch.rawKey })).status).toBe(200);
    },
  );

  it("as an admin of the keys' branch, cannot roll them through the admin routes either (403)", async () => {
    await demote({ role: 'admin', branchId: world.branches.b2 });
    for (const key of [keys.branch, keys.public]) {
      const res = await asSa2('POST', `/admin/api-keys/${key.id}/roll`);
      expect(res.status, res.text).toBe(403);
      expect(res.body.message).toMatch(/^Only a superadmin can roll a (branch|public) key/);
    }
    expect(await keyState(keys.branch.id)).toMatchObject({ isActive: true, replacedBy: null });
  });

  it('still rolls and revokes its own personal key', async () => {
    const rolled = await asSa2('POST', `/api-keys/${keys.personal.id}/roll`);
    expect(rolled.status, rolled.text).toBe(201);
    expect(rolled.body.rawKey).toMatch(/^sk_personal_/);
    expect((await asSa2('DELETE', `/api-keys/${rolled.body.id}`)).status).toBe(204);
  });

  it('leaves them to a superadmin, who still rolls, re-origins and revokes them', async () => {
    const rolled = await call(server, 'POST', `/api-keys/${keys.branch.id}/roll`, { token: tokens.superadmin });
    expect(rolled.status, rolled.text).toBe(201);
    expect(rolled.body).toMatchObject({ type: 'branch', branchId: world.branches.b2 });
    const origins = await call(server, 'PATCH', `/api-keys/${keys.public.id}`, {
      token: tokens.superadmin,
      body: { allowedOrigins: ['https://new.example'] },
    });
    expect(origins.status, origins.text).toBe(200);
    expect((await call(server, 'DELETE', `/api-keys/${keys.public.id}`, { token: tokens.superadmin })).status).toBe(
      204,
    );
  });
});

describe('GET /api-keys for a non-superadmin', () => {
  it('lists only its personal keys, even a branch key it owns in the database', async () => {
    // Owned by admin1 directly in the database: the list and the writes go by type, not by owner alone.
    const { key } = await issueApiKey(server.db, {
      name: 'stray branch key',
      type: 'branch',
      staffUserId: world.staff.admin1.id,
      branchId: world.branches.b1,
    });
    const list = await call(server, 'GET', '/api-keys', { token: tokens.admin1 });
    expect(list.body.every((k: { type: string }) => k.type === 'personal')).toBe(true);
    expect(list.body.map((k: { name: string }) => k.name)).toContain('admin1');
    expect((await call(server, 'POST', `/api-keys/${key.id}/roll`, { token: tokens.admin1 })).status).toBe(404);
    expect((await call(server, 'DELETE', `/api-keys/${key.id}`, { token: tokens.operatorA })).status).toBe(404);
  });
});
