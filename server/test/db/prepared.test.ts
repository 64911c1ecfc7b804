import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_PER_EXECUTION, preparingPool } from '../../src/db/prepared.js';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../helpers/database.js';

// The pool wrapper exists only on PostgreSQL; PGlite has one connection and no pool.
describe.skipIf(!usingPostgres)('preparingPool on PostgreSQL', () => {
  let database: TestDatabase;
  let raw: pg.Pool;

  beforeAll(async () => {
    database = await openTestDatabase();
    raw = new pg.Pool({ connectionString: database.url, max: 2 });
  });
  afterAll(async () => {
    await raw?.end();
    await database?.close();
  });

  it('hands out one wrapper per pooled connection, so Kysely reuses its connection object instead of building one per query', async () => {
    const pool = preparingPool(raw);
    const first = await pool.connect();
    first.release();
    const again = await pool.connect();
    const second = await pool.connect();
    again.release();
    second.release();
    expect(again).toBe(first);
    expect(second).not.toBe(first);
  });

  it('runs parameterised statements as named prepared statements, and plain ones unnamed', async () => {
    const pool = preparingPool(raw);
    const client = await pool.connect();
    try {
      const text = 'select $1::int + 1 as n';
      const a = await client.query(text, [1]);
      const b = await client.query(text, [41]);
      expect([a.rows[0], b.rows[0]]).toEqual([{ n: 2 }, { n: 42 }]);
      const prepared = await client.query(
        'select count(*)::int as n from pg_prepared_statements where statement = $1',
        [text],
      );
      expect(prepared.rows[0]).toEqual({ n: 1 });
    } finally {
      client.release();
    }
  });

  it('runs a statement marked to be planned per execution unnamed, so PostgreSQL plans it for its values every time', async () => {
    const pool = preparingPool(raw);
    const client = await pool.connect();
    try {
      const text = `${PLAN_PER_EXECUTION}select $1::int * 2 as n`;
      for (let i = 1; i <= 6; i++) expect((await client.query(text, [i])).rows[0]).toEqual({ n: 2 * i });
      const prepared = await client.query(
        'select count(*)::int as n from pg_prepared_statements where statement = $1',
        [text],
      );
      expect(prepared.rows[0]).toEqual({ n: 0 });
    } finally {
      client.release();
    }
  });
});
