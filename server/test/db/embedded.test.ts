import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { STARTS_PROCESSES } from '../helpers/processes.js';

// A new data directory is initialised by a short-lived process (src/db/pglite-data-dir.ts), then opened in this one.
describe('the embedded database in a data directory', STARTS_PROCESSES, () => {
  const root = mkdtempSync(join(tmpdir(), 'pxs-embedded-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('initialises a new directory, and keeps what was written when it is opened again', async () => {
    const dataDir = join(root, 'new', 'data');
    const first = await openDatabase({ dataDir });
    try {
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(readdirSync(dataDir).filter((name) => name.startsWith('.pxs-initdb-'))).toEqual([]);
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

  it('starts again where a first start was cut off before the database was in place', async () => {
    const dataDir = join(root, 'cut-off');
    // What a start killed while moving the new database in leaves: its staging directory and part of the files.
    mkdirSync(join(dataDir, '.pxs-initdb-AbC123', 'pg_wal'), { recursive: true });
    mkdirSync(join(dataDir, 'base'));
    writeFileSync(join(dataDir, 'postgresql.conf'), '# half\n');
    const handle = await openDatabase({ dataDir });
    try {
      const { rows } = await sql<{ ok: number }>`select 1 as ok`.execute(handle.db);
      expect(rows).toEqual([{ ok: 1 }]);
      expect(readdirSync(dataDir).filter((name) => name.startsWith('.pxs-initdb-'))).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it('refuses a directory that is not empty and holds no database, naming it, and leaves it as it was', async () => {
    const dataDir = join(root, 'someone-elses');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');
    await expect(openDatabase({ dataDir })).rejects.toThrow(
      `could not initialise the embedded database in ${dataDir}: the directory is not empty and holds no database`,
    );
    expect(readdirSync(dataDir)).toEqual(['notes.txt']);
  });
});
