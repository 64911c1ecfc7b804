import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

// Three of each, so the tests reach the limits quickly; the defaults are checked below.
beforeAll(
  async () =>
    ({ server, world, tokens } = await startWorld({ env: { WEBHOOKS_PER_OWNER: '3', PERSONAL_KEYS_PER_STAFF: '3' } })),
);
afterAll(() => server?.close());

const URL = 'http://127.0.0.1:8/hook';
const registerWith = (key: string) =>
  call(server, 'POST', '/partner/webhooks', { key, body: { url: URL, events: ['order.created'] } });
const createKey = (who: StaffName, body: Record<string, unknown> = { name: 'k', type: 'personal' }) =>
  call(server, 'POST', '/api-keys', { token: tokens[who], body });

it('defaults to 20 webhooks per owner and 50 active personal keys per staff user', () => {
  expect(loadConfig({}).ownerLimits).toEqual({ webhooksPerOwner: 20, personalKeysPerStaff: 50 });
});

describe('webhooks per owner', () => {
  it('refuses the webhook past the limit with 422 naming it, per owner, and accepts one again after a delete', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) {
      const res = await registerWith(world.keys.operatorA);
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const refused = await registerWith(world.keys.operatorA);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: 'Webhook limit reached: an owner may register at most 3 webhooks; delete one first',
    });
    // The branch is another owner, with its own three.
    for (let i = 0; i < 3; i++) expect((await registerWith(world.keys.branch)).status).toBe(201);
    expect((await registerWith(world.keys.branch)).status).toBe(422);
    expect((await call(server, 'DELETE', `/partner/webhooks/${made[0]}`, { key: world.keys.operatorA })).status).toBe(
      204,
    );
    expect((await registerWith(world.keys.operatorA)).status).toBe(201);
  });

  it('lets no more than the limit through when registrations arrive together', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => registerWith(world.keys.operatorB)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 422, 422, 422]);
    const count = await server.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('staff_user_id', '=', world.staff.operatorB.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(3);
  });
});

describe('active personal keys per staff user', () => {
  it('refuses the personal key past the limit with 422 naming it; revoked, expired and rolled keys do not count', async () => {
    // readOnlyA already holds the world's personal key.
    const made = [];
    for (let i = 0; i < 2; i++) {
      const res = await createKey('readOnlyA');
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const refused = await createKey('readOnlyA');
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(
      'Personal key limit reached: a staff user may hold at most 3 active personal keys; revoke one first',
    );

    // Rolling at the limit works: the old key is on its way out.
    const rolled = await call(server, 'POST', `/api-keys/${made[0].id}/roll`, {
      token: tokens.readOnlyA,
      body: { expiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(rolled.status).toBe(201);
    expect((await createKey('readOnlyA')).status).toBe(422);

    expect((await call(server, 'DELETE', `/api-keys/${made[1].id}`, { token: tokens.readOnlyA })).status).toBe(204);
    // Both requests below must come before the expiry: room for a loaded machine, then wait the expiry out.
    const expiresAt = new Date(Date.now() + 3000).toISOString();
    const shortLived = await createKey('readOnlyA', { name: 'short', type: 'personal', expiresAt });
    expect(shortLived.status).toBe(201);
    expect((await createKey('readOnlyA')).status).toBe(422);
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(expiresAt) - Date.now()) + 50));
    expect((await createKey('readOnlyA')).status).toBe(201);
  });

  it('does not limit the branch and public keys a superadmin creates', async () => {
    for (let i = 0; i < 4; i++)
      expect(
        (await createKey('superadmin', { name: `b${i}`, type: 'branch', branchId: world.branches.b1 })).status,
      ).toBe(201);
  });
});
