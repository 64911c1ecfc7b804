import { setTimeout as sleep } from 'node:timers/promises';
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

const HOUR = 3_600_000;
const create = async (who: StaffName, body: Record<string, unknown>) => {
  const res = await call(server, 'POST', '/api-keys', { token: tokens[who], body });
  expect(res.status).toBe(201);
  return res.body as { id: string; rawKey: string; name: string };
};
const roll = (who: StaffName, id: string, body?: unknown) =>
  call(server, 'POST', `/api-keys/${id}/roll`, { token: tokens[who], body });
const offers = (key: string) => call(server, 'GET', '/partner/offers', { key, query: { limit: 100 } });
const listed = async (who: StaffName, id: string) =>
  (await call(server, 'GET', '/api-keys', { token: tokens[who] })).body.find((k: { id: string }) => k.id === id);

describe('POST /api-keys/{id}/roll', () => {
  it('returns a new key of the same type, scope and owner; the old one works until the chosen expiry, then gets 401', async () => {
    const old = await create('operatorA', { name: 'till app', type: 'personal' });
    const before = await offers(old.rawKey);
    expect(before.status).toBe(200);
    // Five requests must be answered before the old key expires: room for a loaded machine.
    const expiresAt = new Date(Date.now() + 5_000).toISOString();
    const res = await roll('operatorA', old.id, { expiresAt });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const rolled = res.body;
    expect(rolled).toMatchObject({
      name: 'till app',
      type: 'personal',
      branchId: null,
      isActive: true,
      expiresAt: null,
      replacedBy: null,
      rawKey: expect.stringMatching(/^sk_personal_/),
    });
    expect(rolled.id).not.toBe(old.id);
    expect(rolled.rawKey).not.toBe(old.rawKey);
    expect(rolled.previousKey).toMatchObject({ id: old.id, isActive: true, replacedBy: rolled.id, expiresAt });

    // During the overlap both keys work, with the same scope.
    const withOld = await offers(old.rawKey);
    const withNew = await offers(rolled.rawKey);
    expect(withOld.status).toBe(200);
    expect(withNew.status).toBe(200);
    expect(withNew.body.meta.total).toBe(before.body.meta.total);
    expect(withNew.body.data.map((o: { id: number }) => o.id)).toEqual(
      before.body.data.map((o: { id: number }) => o.id),
    );

    // The list shows both: the old key with its expiry and its replacement.
    expect(await listed('operatorA', old.id)).toMatchObject({ expiresAt, replacedBy: rolled.id, isActive: true });
    expect(await listed('operatorA', rolled.id)).toMatchObject({ expiresAt: null, replacedBy: null, isActive: true });

    await sleep(Math.max(0, Date.parse(expiresAt) - Date.now()) + 50);
    const after = await offers(old.rawKey);
    expect(after.status).toBe(401);
    expect((await offers(rolled.rawKey)).status).toBe(200);
  });

  it('keeps the old key 24 hours by default, with no body or an empty one', async () => {
    for (const body of [undefined, {}]) {
      const old = await create('operatorB', { name: 'default overlap', type: 'personal' });
      const res = await roll('operatorB', old.id, body);
      expect(res.status).toBe(201);
      expect(Math.abs(Date.parse(res.body.previousKey.expiresAt) - (Date.now() + 24 * HOUR))).toBeLessThan(60_000);
    }
  });

  it('never extends the old key beyond its own expiry, and gives the new key that expiry', async () => {
    const ownExpiry = new Date(Date.now() + HOUR).toISOString();
    const old = await create('operatorB', { name: 'short-lived', type: 'personal', expiresAt: ownExpiry });
    const res = await roll('operatorB', old.id);
    expect(res.status).toBe(201);
    expect(res.body.previousKey.expiresAt).toBe(ownExpiry);
    expect(res.body.expiresAt).toBe(ownExpiry);
  });

  it.each([
    ['beyond 7 days', () => new Date(Date.now() + 7 * 24 * HOUR + 60_000).toISOString(), 'tooLarge'],
    ['in the past', () => new Date(Date.now() - 1_000).toISOString(), 'inPast'],
    ['not a date', () => 'tomorrow', 'invalidFormat'],
  ])('refuses an expiresAt %s with 400 and leaves the key as it was', async (_name, expiresAt, code) => {
    const old = await create('operatorA', { name: 'bad expiry', type: 'personal' });
    const res = await roll('operatorA', old.id, { expiresAt: expiresAt() });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ expiresAt: code });
    expect(await listed('operatorA', old.id)).toMatchObject({ expiresAt: null, replacedBy: null });
  });

  it('accepts exactly 7 days', async () => {
    const old = await create('operatorA', { name: 'a week', type: 'personal' });
    expect(
      (await roll('operatorA', old.id, { expiresAt: new Date(Date.now() + 7 * 24 * HOUR - 60_000).toISOString() }))
        .status,
    ).toBe(201);
  });

  it('refuses to roll a key twice, a revoked key and an expired one with 422', async () => {
    const old = await create('operatorA', { name: 'twice', type: 'personal' });
    const first = await roll('operatorA', old.id);
    const again = await roll('operatorA', old.id);
    expect(again.status).toBe(422);
    expect(again.body.message).toContain(first.body.id);
    const revoked = await create('operatorA', { name: 'revoked', type: 'personal' });
    await call(server, 'DELETE', `/api-keys/${revoked.id}`, { token: tokens.operatorA });
    expect((await roll('operatorA', revoked.id)).body).toMatchObject({
      statusCode: 422,
      message: 'A revoked key cannot be rolled',
    });
    // Created before its expiry however loaded the machine, then rolled after it.
    const expiresSoon = new Date(Date.now() + 3000).toISOString();
    const expired = await create('operatorA', { name: 'expired', type: 'personal', expiresAt: expiresSoon });
    await sleep(Math.max(0, Date.parse(expiresSoon) - Date.now()) + 50);
    expect((await roll('operatorA', expired.id)).body).toMatchObject({
      statusCode: 422,
      message: 'An expired key cannot be rolled',
    });
  });

  it('is allowed to the owner and a superadmin only, as revocation is (404 for anyone else)', async () => {
    const old = await create('operatorB', { name: 'not yours', type: 'personal' });
    expect((await roll('operatorA', old.id)).status).toBe(404);
    expect((await roll('admin1', old.id)).status).toBe(404);
    const bySuper = await roll('superadmin', old.id);
    expect(bySuper.status).toBe(201);
    // The new key still belongs to (and acts as) its owner, not to the superadmin who rolled it.
    expect(await listed('operatorB', bySuper.body.id)).toMatchObject({ type: 'personal', name: 'not yours' });
    expect(await listed('superadmin', bySuper.body.id)).toBeUndefined();
    expect((await roll('operatorA', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('rolls a branch key into a branch key of the same branch', async () => {
    const old = await create('superadmin', { name: 'partner app', type: 'branch', branchId: world.branches.b2 });
    const res = await roll('superadmin', old.id);
    expect(res.body).toMatchObject({
      type: 'branch',
      branchId: world.branches.b2,
      rawKey: expect.stringMatching(/^sk_branch_/),
    });
    const [a, b] = [await offers(old.rawKey), await offers(res.body.rawKey)];
    expect(b.body.data.map((o: { id: number }) => o.id)).toEqual(a.body.data.map((o: { id: number }) => o.id));
  });
});

describe('POST /admin/api-keys/{id}/roll', () => {
  const adminRoll = (who: StaffName, id: string, body?: unknown) =>
    call(server, 'POST', `/admin/api-keys/${id}/roll`, { token: tokens[who], body });
  const keyOf = async (id: string) =>
    (await call(server, 'GET', '/admin/api-keys', { token: tokens.superadmin, query: { limit: 100 } })).body.data.find(
      (k: { id: string }) => k.id === id,
    );

  it("lets an admin roll its own personal key, and not another branch's keys", async () => {
    const own = await create('admin1', { name: 'admin 1 own key', type: 'personal' });
    const res = await adminRoll('admin1', own.id, { expiresAt: new Date(Date.now() + HOUR).toISOString() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'personal',
      name: 'admin 1 own key',
      rawKey: expect.stringMatching(/^sk_personal_/),
      previousKey: { id: own.id, replacedBy: res.body.id },
    });
    expect(await listed('admin1', res.body.id)).toBeDefined();
    expect((await adminRoll('admin2', res.body.id)).status).toBe(404);
    expect((await adminRoll('operatorA', res.body.id)).status).toBe(403);
  });

  it("refuses an admin (403) another staff user's personal key: its raw key would let the admin act as that user", async () => {
    const theirs = await create('operatorA', { name: 'operator A till', type: 'personal' });
    const res = await adminRoll('admin1', theirs.id);
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/^Only a superadmin can roll another staff user's personal key/);
    expect(res.text).not.toContain('sk_personal_');
    expect(await keyOf(theirs.id)).toMatchObject({ isActive: true, replacedBy: null, expiresAt: null });
    expect((await offers(theirs.rawKey)).status).toBe(200);
    // Revoking it stays the admin's.
    expect((await call(server, 'DELETE', `/admin/api-keys/${theirs.id}`, { token: tokens.admin1 })).status).toBe(204);
  });

  it("refuses an admin (403) its branch's branch and public keys: issuing those stays a superadmin's", async () => {
    for (const type of ['branch', 'public'] as const) {
      const key = await create('superadmin', { name: `branch 1 ${type}`, type, branchId: world.branches.b1 });
      const res = await adminRoll('admin1', key.id);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(new RegExp(`^Only a superadmin can roll a ${type} key`));
      expect(res.text).not.toMatch(/sk_branch_|pk_/);
      expect(await keyOf(key.id)).toMatchObject({ isActive: true, replacedBy: null });
    }
    expect((await adminRoll('admin1', world.keyIds.otherBranch)).status).toBe(404);
  });

  it("lets a superadmin roll any key: a staff user's personal key and a branch key", async () => {
    const personal = await create('operatorB', { name: 'operator B till', type: 'personal' });
    const branch = await create('superadmin', { name: 'branch 2 app', type: 'branch', branchId: world.branches.b2 });
    const a = await adminRoll('superadmin', personal.id);
    const b = await adminRoll('superadmin', branch.id);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(await listed('operatorB', a.body.id)).toMatchObject({ type: 'personal' });
    expect(b.body).toMatchObject({ type: 'branch', branchId: world.branches.b2 });
  });
});
