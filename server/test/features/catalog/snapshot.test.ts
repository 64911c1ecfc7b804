import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import { staffToken } from '../../helpers/staff.js';
import { createWorld, type World } from '../../helpers/world.js';
import type { TestDatabase } from '../../helpers/database.js';
import {
  answers,
  catalogueReads,
  neverListening,
  openTestDatabase,
  queriesOf,
  rateOf,
  secondHandle,
} from './snapshot-support.js';

/*
 * The catalogue snapshot (docs/scaling.md) on two instances sharing one database (on PostgreSQL each with its own pool
 * and LISTEN): reads answer from memory with no query, exactly as the database answers, and a change committed by
 * any writer reaches the other instance's reads.
 */
let db: TestDatabase;
let db2: TestDatabase;
let a: TestServer;
let b: TestServer;
let direct: TestServer;
let w: World;
let token: string;
const env = { KEY_CACHE_TTL_MS: '5000', LAST_USED_FLUSH_MS: '60000' };

beforeAll(async () => {
  db = await openTestDatabase();
  w = await createWorld(db.db);
  db2 = await secondHandle(db);
  a = await startTestServer({ database: db, env });
  b = await startTestServer({ database: db2, env });
  direct = await startTestServer({ database: neverListening(db), env });
  token = await staffToken(a, w.staff.superadmin.id);
}, 60_000);

afterAll(async () => {
  await Promise.all([a, b, direct].map((s) => s?.close()));
  if (db2 !== db) await db2?.close();
  await db?.close();
});

/** Waits until a whole round of reads on `server` runs no query (the snapshot is listening and built), and prints how long. */
async function warm(server: TestServer, key: string) {
  const reads = catalogueReads(w);
  const t = performance.now();
  await eventually(async () => (await queriesOf(server, () => answers(server, key, reads))) === 0, 15_000);
  return performance.now() - t;
}

/** Waits until `server` shows `rate` for the offer, and prints the delay since `since`. */
async function arrives(what: string, server: TestServer, offerId: number, rate: number, since: number) {
  await eventually(async () => (await rateOf(server, w.keys.branch, offerId)) === rate, 10_000, 5);
  console.log(`snapshot: ${what} visible after ${(performance.now() - since).toFixed(1)} ms`);
}

describe('the catalogue snapshot', () => {
  it('answers every catalogue read with no query once warm, byte for byte as the database answers', async () => {
    const reads = catalogueReads(w);
    for (const key of [w.keys.branch, w.keys.public, w.keys.otherBranch]) {
      await warm(b, key);
      const fromMemory = await answers(b, key, reads);
      expect(
        await queriesOf(direct, async () => expect(await answers(direct, key, reads)).toEqual(fromMemory)),
      ).toBeGreaterThan(0);
    }
    // The other branch's key sees its own exchange only.
    const other = await call(b, 'GET', '/partner/public/exchanges', { key: w.keys.otherBranch });
    expect(other.body.map((e: { id: number }) => e.id)).toEqual([w.exchanges.C]);
    // Pages after a cursor, for sorts of every kind of column, in one or mixed directions: the same pages, from memory.
    for (const sort of [
      [['rate', 'ASC']],
      [
        ['updatedAt', 'ASC'],
        ['minAmount', 'DESC'],
      ],
      [
        ['exchangeId', 'DESC'],
        ['id', 'ASC'],
      ],
      [['createdAt', 'DESC']],
    ]) {
      const query = { limit: 2, sort: JSON.stringify(sort) };
      let cursor: string | null = (await call(b, 'GET', '/partner/offers', { key: w.keys.branch, query })).body.meta
        .nextCursor;
      expect(cursor).not.toBeNull();
      for (let pages = 0; cursor && pages < 4; pages++) {
        const next = { key: w.keys.branch, query: { ...query, cursor } };
        let fromMemory = '';
        await eventually(
          async () =>
            (await queriesOf(b, async () => {
              fromMemory = (await call(b, 'GET', '/partner/offers', next)).text;
            })) === 0,
        );
        expect(fromMemory).toBe((await call(direct, 'GET', '/partner/offers', next)).text);
        cursor = JSON.parse(fromMemory).meta.nextCursor;
      }
    }
    // A cursor of another sort is refused alike.
    const first = await call(b, 'GET', '/partner/offers', { key: w.keys.branch, query: { limit: 2 } });
    const foreign = {
      key: w.keys.branch,
      query: { limit: 2, sort: '[["rate","ASC"]]', cursor: first.body.meta.nextCursor },
    };
    const refused = await call(b, 'GET', '/partner/offers', foreign);
    expect(refused.status).toBe(400);
    expect(refused.text).toBe((await call(direct, 'GET', '/partner/offers', foreign)).text);
  });

  it('builds a branch once for concurrent first reads after a change, and counts builds and invalidations', async () => {
    await warm(b, w.keys.branch);
    const metric = async (name: string) => {
      const text = await (await fetch(`${b.url}/metrics`)).text();
      return text
        .split('\n')
        .filter((l) => l.startsWith(name))
        .reduce((n, l) => n + Number(l.split(' ').pop()), 0);
    };
    const builds = await metric('pxs_catalog_snapshot_builds_total');
    const drops = await metric('pxs_catalog_snapshot_invalidations_total');
    await sql`update offers set updated_at = now() where id = ${w.offers.aUsdEur}`.execute(db.db);
    await eventually(async () => (await metric('pxs_catalog_snapshot_invalidations_total')) > drops, 10_000, 5);
    const reads = await Promise.all(
      Array.from({ length: 20 }, () => call(b, 'GET', '/partner/public/currencies', { key: w.keys.branch })),
    );
    expect(reads.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(await metric('pxs_catalog_snapshot_builds_total')).toBe(builds + 1);
  });

  it('shows an offer changed through the admin API of the other instance', async () => {
    await warm(b, w.keys.branch);
    const t = performance.now();
    const res = await call(a, 'PATCH', `/admin/offers/${w.offers.aUsdEur}`, { token, body: { rate: 0.9301 } });
    expect(res.status).toBe(200);
    await arrives('admin API change on the other instance', b, w.offers.aUsdEur, 0.9301, t);
    // The writing instance reads its own write at once.
    expect(await rateOf(a, w.keys.branch, w.offers.aUsdEur)).toBe(0.9301);
  });

  it('shows changes written in SQL by no service at all: an offer, a schedule, a currency shared by every branch', async () => {
    await warm(b, w.keys.branch);
    await warm(b, w.keys.otherBranch);
    let t = performance.now();
    await sql`update offers set rate = 0.9402 where id = ${w.offers.aUsdEur}`.execute(db.db);
    await arrives('SQL change', b, w.offers.aUsdEur, 0.9402, t);
    await arrives('SQL change on the writing instance', a, w.offers.aUsdEur, 0.9402, t);

    t = performance.now();
    await sql`update exchange_schedule set open_time = '08:15' where exchange_id = ${w.exchanges.A} and day_of_week = 1`.execute(
      db.db,
    );
    await eventually(
      async () => {
        const res = await call(b, 'GET', '/partner/public/exchanges', { key: w.keys.branch });
        return res.body.find((e: { id: number }) => e.id === w.exchanges.A).schedule[0].openTime === '08:15';
      },
      10_000,
      5,
    );
    console.log(`snapshot: SQL schedule change visible after ${(performance.now() - t).toFixed(1)} ms`);

    await sql`update currencies set name = 'Euro (shared)' where id = ${w.currencies.EUR}`.execute(db.db);
    await eventually(
      async () => {
        const res = await call(b, 'GET', '/partner/public/currencies', { key: w.keys.otherBranch });
        return res.body.some((c: { name: string }) => c.name === 'Euro (shared)');
      },
      10_000,
      5,
    );
  });

  it('shows an exchange closed through the admin API in the rates and the estimate', async () => {
    await warm(b, w.keys.branch);
    const res = await call(a, 'PATCH', `/admin/exchanges/${w.exchanges.B}`, { token, body: { isActive: false } });
    expect(res.status).toBe(200);
    await eventually(async () => (await rateOf(b, w.keys.branch, w.offers.bUsdEur)) === undefined, 10_000, 5);
    const estimate = await call(b, 'POST', '/partner/public/estimate', {
      key: w.keys.branch,
      body: {
        exchangeId: w.exchanges.B,
        sourceCurrencyId: w.currencies.USD,
        destCurrencyId: w.currencies.EUR,
        amount: 10,
      },
    });
    expect(estimate.status).toBe(404);
  });
});
