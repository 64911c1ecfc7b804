import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenPostgres } from '../../../src/db/notifications.js';
import { usingPostgres, type TestDatabase } from '../../helpers/database.js';
import { eventually } from '../../helpers/eventually.js';
import { startTestServer, type TestServer } from '../../helpers/server.js';
import { tcpProxy, type TcpProxy } from '../../helpers/tcp-proxy.js';
import { createWorld, type World } from '../../helpers/world.js';
import { answers, catalogueReads, openTestDatabase, queriesOf, rateOf, secondHandle } from './snapshot-support.js';

/*
 * The snapshot's LISTEN connection reaches PostgreSQL through a relay the test cuts and restores, while the
 * instance's pool reaches it directly: without notifications the instance reads the database (never a snapshot
 * that may have missed a change), and once listening again it serves from memory and hears changes again.
 * PostgreSQL pass only: PGlite's LISTEN is in-process and cannot be lost.
 */
let db: TestDatabase;
let pool: TestDatabase;
let link: TcpProxy;
let server: TestServer;
let w: World;

describe.skipIf(!usingPostgres)('the snapshot without its LISTEN connection (PostgreSQL)', () => {
  beforeAll(async () => {
    db = await openTestDatabase();
    w = await createWorld(db.db);
    const url = new URL(db.url!);
    link = await tcpProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${link.port}`;
    pool = await secondHandle(db);
    const relayed = url.toString();
    server = await startTestServer({
      // A quicker heartbeat than the service's (1 s, 5 s), so that the silent cut below is found sooner.
      database: {
        ...pool,
        listen: (channel, handlers) =>
          listenPostgres(pg.Client, relayed, channel, handlers, { heartbeatMs: 250, timeoutMs: 2000 }),
      },
      env: { LAST_USED_FLUSH_MS: '60000' },
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await link?.close();
    await pool?.close();
    await db?.close();
  });

  const key = () => w.keys.branch;
  const warm = () =>
    eventually(async () => (await queriesOf(server, () => answers(server, key(), catalogueReads(w)))) === 0, 15_000);

  it('hears a change committed by another process (psql)', async () => {
    await warm();
    const t = performance.now();
    await promisify(execFile)('psql', [
      db.url!,
      '-qc',
      `update offers set rate = 0.9111 where id = ${w.offers.aUsdEur}`,
    ]);
    await eventually(async () => (await rateOf(server, key(), w.offers.aUsdEur)) === 0.9111, 10_000, 5);
    console.log(`snapshot: psql change visible after ${(performance.now() - t).toFixed(1)} ms`);
  });

  it('reads the database while the LISTEN connection is cut, and the snapshot again once it is back', async () => {
    await warm();
    await link.cut();
    // Once the loss is seen, every read queries: a change made now shows on the next read.
    await eventually(
      async () => (await queriesOf(server, () => rateOf(server, key(), w.offers.aUsdEur))) > 0,
      10_000,
      5,
    );
    await sql`update offers set rate = 0.9222 where id = ${w.offers.aUsdEur}`.execute(db.db);
    expect(await rateOf(server, key(), w.offers.aUsdEur)).toBe(0.9222);
    expect(await queriesOf(server, () => answers(server, key(), catalogueReads(w)))).toBeGreaterThan(0);

    await link.restore();
    const t = performance.now();
    await warm();
    console.log(
      `snapshot: serving from memory again ${(performance.now() - t).toFixed(0)} ms after the relay was restored`,
    );
    await sql`update offers set rate = 0.9333 where id = ${w.offers.aUsdEur}`.execute(db.db);
    await eventually(async () => (await rateOf(server, key(), w.offers.aUsdEur)) === 0.9333, 10_000, 5);
    // From memory again after the change (a read may meet the key cache's expiry, hence a round with none).
    await eventually(
      async () => (await queriesOf(server, () => rateOf(server, key(), w.offers.aUsdEur))) === 0,
      10_000,
      5,
    );
  });

  it('finds a LISTEN connection cut without a reset by its heartbeat, instead of serving a snapshot nothing updates', async () => {
    await warm();
    link.silence();
    // No notification gets through now, and no error says so: only the heartbeat's unanswered question can.
    const t = performance.now();
    await sql`update offers set rate = 0.9444 where id = ${w.offers.aUsdEur}`.execute(db.db);
    await eventually(async () => (await rateOf(server, key(), w.offers.aUsdEur)) === 0.9444, 15_000, 5);
    console.log(
      `snapshot: change visible ${(performance.now() - t).toFixed(0)} ms after a silent cut of its LISTEN connection`,
    );
    // Listening again on a new connection: from memory, and hearing changes.
    await warm();
    await sql`update offers set rate = 0.9555 where id = ${w.offers.aUsdEur}`.execute(db.db);
    await eventually(async () => (await rateOf(server, key(), w.offers.aUsdEur)) === 0.9555, 10_000, 5);
  });
});
