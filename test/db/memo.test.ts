import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoQuery } from '../../src/db/memo.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';

let database: TestDatabase;

beforeAll(async () => {
  database = await openTestDatabase();
  await database.db.insertInto('branches').values([{ name: 'one' }, { name: 'two' }, { name: 'three' }]).execute();
});
afterAll(() => database?.close());

describe('memoQuery', () => {
  it('reuses the compiled SQL with each call\'s parameters, null parameters making their own shape', async () => {
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

  it('passes arrays as one parameter', async () => {
    const byNames = memoQuery((db, p: { names: string[] }) => db.selectFrom('branches').select('name').where(sql<boolean>`name = any(${p.names})`).orderBy('id'));
    expect(await byNames(database.db, { names: ['one', 'three'] })).toEqual([{ name: 'one' }, { name: 'three' }]);
    expect(await byNames(database.db, { names: ['two'] })).toEqual([{ name: 'two' }]);
  });

  it('fails loudly when a builder freezes a parameter into the query instead of using its placeholder', async () => {
    // String(p.name) turns the placeholder into a constant: the cached SQL would always look for that text.
    const frozen = memoQuery((db, p: { name: string }) => db.selectFrom('branches').select('name').where('name', '=', String(p.name)));
    await expect(frozen(database.db, { name: 'one' })).rejects.toThrow(/not passed through its placeholders/);
  });
});
