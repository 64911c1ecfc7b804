import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageQuery } from '../../src/db/list.js';
import { memoQuery } from '../../src/db/memo.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db
    .insertInto('branches')
    .values([{ name: 'one' }, { name: 'two' }, { name: 'three' }])
    .execute();
});
afterAll(() => database?.close());

describe('memoQuery', () => {
  it("reuses the compiled SQL with each call's parameters, null parameters making their own shape", async () => {
    const byName = memoQuery((db, p: { name: string | null }) => {
      let q = db.selectFrom('branches').select('name').orderBy('id');
      if (p.name !== null) q = q.where('name', '=', p.name);
      return q;
    });
    for (let i = 0; i < 5; i++) {
      expect(await byName(database.db, { name: 'two' })).toEqual([{ name: 'two' }]);
      expect(await byName(database.db, { name: 'three' })).toEqual([{ name: 'three' }]);
      expect(await byName(database.db, { name: null })).toEqual([{ name: 'one' }, { name: 'two' }, { name: 'three' }]);
    }
  });

  it('keeps an undefined value apart from null: an insert leaves the one out and writes the other', async () => {
    // created_at has a default: undefined leaves the column out, null would write null and break its not-null.
    const insert = memoQuery((db, p: { name: string; created_at: Date | null | undefined }) =>
      db
        .insertInto('branches')
        .values(p as { name: string; created_at?: Date })
        .returning('name'),
    );
    expect(await insert(database.db, { name: 'four', created_at: undefined })).toEqual([{ name: 'four' }]);
    await expect(insert(database.db, { name: 'five', created_at: null })).rejects.toThrow(
      /created_at.*violates not-null constraint/,
    );
    await database.db.deleteFrom('branches').where('name', '=', 'four').execute();
  });

  it('passes arrays as one parameter', async () => {
    const byNames = memoQuery((db, p: { names: string[] }) =>
      db
        .selectFrom('branches')
        .select('name')
        .where(sql<boolean>`name = any(${p.names})`)
        .orderBy('id'),
    );
    expect(await byNames(database.db, { names: ['one', 'three'] })).toEqual([{ name: 'one' }, { name: 'three' }]);
    expect(await byNames(database.db, { names: ['two'] })).toEqual([{ name: 'two' }]);
  });

  it('fails loudly when a builder freezes a parameter into the query instead of using its placeholder', async () => {
    // String(p.name) turns the placeholder into a constant: the cached SQL would always look for that text.
    const frozen = memoQuery((db, p: { name: string }) =>
      db.selectFrom('branches').select('name').where('name', '=', String(p.name)),
    );
    await expect(frozen(database.db, { name: 'one' })).rejects.toThrow(/not passed through its placeholders/);
  });
});

describe('pageQuery', () => {
  const COLUMNS = { id: 'b.id', name: 'b.name', createdAt: 'b.created_at' };
  const branches = pageQuery(
    (db, s: { minId: number | null }) => {
      const q = db.selectFrom('branches as b');
      return s.minId === null ? q : q.where('b.id', '>=', s.minId);
    },
    COLUMNS,
    (qb) => qb.select(['b.id', 'b.name']),
  );
  const names = (page: { rows: { name: string }[] }) => page.rows.map((r) => r.name);

  it('gives each call its own filter values, paging and scope through one compiled query per shape', async () => {
    const all = { skip: 0, limit: 10, filter: {}, sort: [['id', 'ASC']] as [string, 'ASC' | 'DESC'][] };
    for (let i = 0; i < 5; i++) {
      expect(names(await branches(database.db, { minId: null }, all))).toEqual(['one', 'two', 'three']);
      expect(await branches(database.db, { minId: null }, { ...all, filter: { name: 'two' } })).toMatchObject({
        total: 1,
        rows: [{ name: 'two' }],
      });
      expect(names(await branches(database.db, { minId: null }, { ...all, filter: { name: 'three' } }))).toEqual([
        'three',
      ]);
      expect(
        await branches(database.db, { minId: null }, { ...all, skip: 1, limit: 1, sort: [['name', 'DESC']] }),
      ).toMatchObject({ total: 3, rows: [{ name: 'three' }] });
      expect(names(await branches(database.db, { minId: 2 }, all))).toEqual(['two', 'three']);
      const future = { createdAt: { gte: new Date(Date.now() + 3_600_000) } };
      expect(await branches(database.db, { minId: null }, { ...all, filter: future })).toEqual({
        rows: [],
        total: 0,
        totalCapped: false,
        nextCursor: null,
      });
      expect(
        await branches(
          database.db,
          { minId: null },
          { ...all, filter: { createdAt: { lt: new Date(Date.now() + 3_600_000) } } },
        ),
      ).toMatchObject({ total: 3 });
    }
  });

  it('counts the matches when the page is past the end', async () => {
    expect(
      await branches(database.db, { minId: null }, { skip: 10, limit: 10, filter: {}, sort: [['id', 'ASC']] }),
    ).toEqual({ rows: [], total: 3, totalCapped: false, nextCursor: null });
  });
});
