import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../helpers/database.js';

// pg-pool closes a connection idle for 10 s unless the pool is at its minimum; the service's pool is fixed-size.
describe.skipIf(!usingPostgres)('the PostgreSQL pool', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    database = await openTestDatabase();
    handle = await openDatabase({ databaseUrl: database.url, dataDir: 'memory://', poolSize: 3 });
  });
  afterAll(async () => {
    await handle?.close();
    await database?.close();
  });

  // Three statements at once, each holding its connection a moment, so all three connections are in use.
  const backends = async () => {
    const rows = await Promise.all(
      [1, 2, 3].map(
        async () =>
          (await sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.05)`.execute(handle.db)).rows[0]!.pid,
      ),
    );
    return new Set(rows);
  };

  it('opens every connection when warmed, before any request needs one', async () => {
    const fresh = await openDatabase({ databaseUrl: database.url, dataDir: 'memory://', poolSize: 4 });
    try {
      const sessions = async () =>
        Number(
          (
            await sql<{
              n: number;
            }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = 'pxs'`.execute(
              handle.db,
            )
          ).rows[0]!.n,
        );
      const before = await sessions();
      await fresh.warm();
      expect(await sessions()).toBe(before + 4);
    } finally {
      await fresh.close();
    }
  });

  it('keeps its connections through a lull longer than the idle timeout, so the next requests need no new backend', async () => {
    const before = await backends();
    expect(before.size).toBe(3);
    await new Promise((r) => setTimeout(r, 11_000));
    expect(await backends()).toEqual(before);
  }, 20_000);
});
