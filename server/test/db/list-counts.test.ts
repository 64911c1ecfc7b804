import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../helpers/fixture.js';
import { call, type TestServer } from '../helpers/server.js';
import type { StaffName } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';

/**
 * The unfiltered clients list and audit log count exactly past the cap (their counters, kept by triggers), in every
 * scope that reads them whole; a filtered list still stops at 10,000 and says so.
 */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const MANY = 10_050;

const count = async (query: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(query)}`.execute(server.db)).rows[0].n;

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  await sql`
    insert into clients (branch_id, first_name, last_name, email, phone, updated_at)
    select ${world.branches.b1}::int, 'Many', 'Client', 'many-' || g || '@example.com', '+35191' || lpad(g::text, 7, '0'), now()
    from generate_series(1, ${MANY}::int) g`.execute(server.db);
  // One statement of rows of two branches and of none: each counter takes its own.
  await sql`
    insert into audit_log (actor, staff_user_id, role, action, entity_type, entity_id, branch_id)
    select 'cli', null, 'cli', 'offer.update', 'offer', g::text,
      case when g % 10 = 0 then null when g % 10 = 1 then ${world.branches.b2}::int else ${world.branches.b1}::int end
    from generate_series(1, ${MANY + 2_000}::int) g`.execute(server.db);
}, 120_000);
afterAll(() => server?.close());

describe('an unfiltered list past the cap', () => {
  it("counts a branch's clients exactly, for a partner and for staff, and follows deletions", async () => {
    const partner = await call(server, 'GET', '/partner/clients', { key: world.keys.branch, query: { limit: 1 } });
    expect(partner.status, partner.text).toBe(200);
    const inBranch = await count(`clients where branch_id = ${world.branches.b1}`);
    expect(inBranch).toBeGreaterThan(10_000);
    expect(partner.body.meta.total).toBe(inBranch);
    expect(partner.body.meta.totalCapped).toBeUndefined();
    const admin = await call(server, 'GET', '/admin/clients', { token: tokens.admin1, query: { limit: 1 } });
    expect(admin.body.meta).toMatchObject({ total: inBranch });
    expect(admin.body.meta.totalCapped).toBeUndefined();
    const everyone = await call(server, 'GET', '/admin/clients', { token: tokens.superadmin, query: { limit: 1 } });
    expect(everyone.body.meta.total).toBe(await count('clients'));

    await sql`delete from clients where id in (select id from clients where email like 'many-%' order by id limit 7)`.execute(
      server.db,
    );
    const after = await call(server, 'GET', '/partner/clients', { key: world.keys.branch, query: { limit: 1 } });
    expect(after.body.meta.total).toBe(inBranch - 7);
  });

  it('counts the audit log exactly for a branch admin and for the superadmin (rows of no branch included)', async () => {
    const admin = await call(server, 'GET', '/admin/audit', { token: tokens.admin1, query: { limit: 1 } });
    expect(admin.status, admin.text).toBe(200);
    expect(admin.body.meta.total).toBe(await count(`audit_log where branch_id = ${world.branches.b1}`));
    expect(admin.body.meta.total).toBeGreaterThan(8_000);
    const all = await call(server, 'GET', '/admin/audit', { token: tokens.superadmin, query: { limit: 1 } });
    expect(all.body.meta.total).toBe(await count('audit_log'));
    expect(all.body.meta.total).toBeGreaterThan(10_000);
    expect(all.body.meta.totalCapped).toBeUndefined();
  });

  it('still stops a filtered list at 10,000 and says so', async () => {
    // A period is not counted per day for every branch at once (migration 016 counts a branch's days).
    const filtered = await call(server, 'GET', '/admin/audit', {
      token: tokens.superadmin,
      query: { from: '2000-01-01T00:00:00Z', limit: 1 },
    });
    expect(filtered.body.meta).toMatchObject({ total: 10_000, totalCapped: true });
  });
});
