import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateOffer } from '../../../src/features/offers/repository.js';
import { usingPostgres } from '../../helpers/database.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const updatedAt = async (id: number) =>
  (await server.db.selectFrom('offers').select('updated_at').where('id', '=', id).executeTakeFirstOrThrow()).updated_at;

/**
 * offer.updated deliveries arrive in no order (docs/webhooks.md), and a receiver keeps the one with the latest
 * `updatedAt`: so each change of an offer must read later than the change before it, even one whose transaction
 * began first and then waited for the row.
 */
describe("an offer's updatedAt", () => {
  it('grows by at least a millisecond with every change', async () => {
    const id = world.offers.aUsdEur;
    let last = await updatedAt(id);
    for (const rate of [0.91, 0.92, 0.93, 0.94]) {
      const res = await call(server, 'PATCH', `/admin/offers/${id}`, { token: tokens.admin1, body: { rate } });
      expect(res.status).toBe(200);
      const now = new Date(res.body.updatedAt);
      expect(now.getTime()).toBeGreaterThanOrEqual(last.getTime() + 1);
      last = now;
    }
  });

  it.skipIf(!usingPostgres)(
    "is later than a change that committed while this one's transaction was open (PostgreSQL)",
    async () => {
      const id = world.offers.bUsdEur;
      let committedMeanwhile = new Date(0);
      await server.db.transaction().execute(async (tx) => {
        // The transaction has begun, so now() is fixed from here on.
        await sql`select now()`.execute(tx);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const res = await call(server, 'PATCH', `/admin/offers/${id}`, { token: tokens.admin1, body: { rate: 0.95 } });
        expect(res.status).toBe(200);
        committedMeanwhile = new Date(res.body.updatedAt);
        await updateOffer(tx, id, { rate: '0.96', minAmount: '1', maxAmount: '100' });
      });
      expect((await updatedAt(id)).getTime()).toBeGreaterThan(committedMeanwhile.getTime());
    },
  );
});
