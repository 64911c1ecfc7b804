import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { STARTS_PROCESSES } from '../helpers/processes.js';

// A new data directory is initialised by a short-lived process (src/db/database.ts), then opened in this one.
describe('the embedded database in a data directory', STARTS_PROCESSES, () => {
  const root = mkdtempSync(join(tmpdir(), 'pxs-embedded-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('initialises a new directory, and keeps what was written when it is opened again', async () => {
    const dataDir = join(root, 'new', 'data');
    const first = await openDatabase({ dataDir });
    try {
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      await sql`create table kept (n int)`.execute(first.db);
      await sql`insert into kept values (42)`.execute(first.db);
    } finally {
      await first.close();
    }
    const again = await openDatabase({ dataDir });
    try {
      const { rows } = await sql<{ n: number }>`select n from kept`.execute(again.db);
      expect(rows).toEqual([{ n: 42 }]);
    } finally {
      await again.close();
    }
  });

  it('names the directory when it cannot be initialised there, and leaves it uninitialised', async () => {
    const clash = join(root, 'clash');
    mkdirSync(clash);
    // A file where initdb must make a directory.
    writeFileSync(join(clash, 'global'), '');
    await expect(openDatabase({ dataDir: clash })).rejects.toThrow(`could not initialise the embedded database in ${clash}`);
    expect(existsSync(join(clash, 'PG_VERSION'))).toBe(false);
  });
});
