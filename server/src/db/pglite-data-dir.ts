import { execFile } from 'node:child_process';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { LOCK_FILE } from './data-dir-lock.js';

/**
 * Makes `dataDir` if it does not exist, and checks that this process can use it. PGlite itself says only "PGlite
 * failed to initialize properly" of a directory it cannot write, and mkdir "EEXIST" of a file in its place.
 */
export function ensureDataDir(dataDir: string): void {
  const fail = (what: string, cause?: unknown) => new Error(`DATA_DIR ${dataDir}: ${what}`, { cause });
  let stat;
  try {
    stat = statSync(dataDir, { throwIfNoEntry: false });
  } catch (err) {
    throw fail(`cannot be used: ${(err as Error).message}`, err);
  }
  if (stat && !stat.isDirectory()) throw fail('not a directory');
  if (!stat) {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (err) {
      throw fail(`could not be created: ${(err as Error).message}`, err);
    }
  }
  // PGlite writes in it at every open, even to read (its postmaster.pid, the WAL).
  try {
    accessSync(dataDir, constants.W_OK);
  } catch (err) {
    throw fail(`not writable by this process (uid ${process.getuid?.() ?? 'unknown'})`, err);
  }
}

/**
 * Makes sure `dataDir` holds an embedded database, creating one if the directory is new or empty.
 *
 * PGlite's initdb (a WebAssembly module of its own) runs in a short-lived process. Run in the API process, its
 * memory stayed resident for the process's life: 817 MB RSS after opening a new directory, against 302 MB when it
 * already existed, because V8 frees a WebAssembly memory only in a full collection, which an idle server with the
 * memory reducer off does not run. The extra process costs about half a second, once.
 *
 * The database is made in a staging directory inside `dataDir` (the same file system, and `dataDir` itself may be
 * a mount point that cannot be replaced), then moved in with PG_VERSION last: a directory holds a database when it
 * has PG_VERSION. A start cut off before that leaves its staging directory, and the next start clears what it
 * finds and begins again. One process at a time opens an embedded database: the caller holds its lock (data-dir-lock.ts),
 * whose file is the one entry this leaves alone.
 */
export async function initialiseDataDir(dataDir: string): Promise<void> {
  const entries = readdirSync(dataDir).filter((name) => name !== LOCK_FILE);
  const staged = entries.filter((name) => name.startsWith(STAGING));
  if (holdsDatabase(dataDir)) return removeEntries(dataDir, staged);
  if (staged.length > 0) removeEntries(dataDir, entries);
  else if (entries.length > 0) {
    throw new Error(
      `could not initialise the embedded database in ${dataDir}: the directory is not empty and holds no database (no PG_VERSION); empty it or choose another DATA_DIR`,
    );
  }
  const staging = mkdtempSync(join(dataDir, STAGING));
  try {
    await execFileAsync(
      process.execPath,
      ['-e', INITDB, createRequire(import.meta.url).resolve('@electric-sql/pglite'), staging],
      { timeout: INITDB_TIMEOUT_MS },
    );
    const names = readdirSync(staging).sort((a, b) => Number(a === 'PG_VERSION') - Number(b === 'PG_VERSION'));
    for (const name of names) renameSync(join(staging, name), join(dataDir, name));
  } catch (err) {
    throw new Error(`could not initialise the embedded database in ${dataDir}: ${failure(err)}`, { cause: err });
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

const STAGING = '.pxs-initdb-';
const holdsDatabase = (dataDir: string) => existsSync(join(dataDir, 'PG_VERSION'));
const removeEntries = (dataDir: string, names: string[]) => {
  for (const name of names) rmSync(join(dataDir, name), { recursive: true, force: true });
};

const execFileAsync = promisify(execFile);
/** initdb takes 3 s on a quiet machine; a child that has not finished in two minutes will not. */
const INITDB_TIMEOUT_MS = 120_000;
const INITDB = `const { PGlite } = require(process.argv[1]);
const db = new PGlite(process.argv[2]);
db.waitReady.then(() => db.close()).then(() => process.exit(0), (err) => { console.error((err && err.message) || err); process.exit(1); });`;

/** What the child said last (without node's version line), or how it ended. */
function failure(err: unknown): string {
  const e = err as { stderr?: string; signal?: string | null; killed?: boolean; message?: string };
  const said = (e.stderr ?? '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('Node.js v'));
  if (said.length > 0) return said.slice(-3).join(' ');
  if (e.signal)
    return `initdb's process was ended by ${e.signal}${e.killed ? ` after ${INITDB_TIMEOUT_MS / 1000} s` : ''}`;
  return e.message ?? String(err);
}
