import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The process that holds an embedded data directory, as PostgreSQL's postmaster.pid does for a server's.
 *
 * PGlite takes no lock: two processes on one directory both start, both write, and one's writes are lost (or the
 * directory is left unreadable). The postmaster.pid PGlite writes cannot serve: its WebAssembly postgres writes the
 * pid -42 in every process, and nothing reads it back. Package locks (proper-lockfile and the like) count a lock as
 * stale when its time stamp is not refreshed by a timer, and PGlite blocks the event loop for seconds while it
 * opens a directory: a live holder would be taken for a dead one. A pid and `kill(pid, 0)` cannot be fooled so.
 */
export const LOCK_FILE = 'pxs.pid';

export interface DataDirLock {
  /** Removes the lock file, if it is still this process's. */
  release(): void;
}

/** Lock files this process holds: its own pid in a file is a leftover of an earlier life only if not listed here. */
const held = new Set<string>();

/** Takes `dataDir` for this process, or throws naming the process that has it. */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = resolve(join(dataDir, LOCK_FILE));
  if (!create(dataDir, path)) {
    const holder = holderOf(path);
    if (holder !== undefined) throw inUse(dataDir, holder);
    // Once only: a starter that found the same stale file and replaced it first has made a file this create cannot
    // take. (One that read the stale pid before that replacement and removes after it would remove the new file: a
    // window of two system calls, which PostgreSQL's postmaster.pid has too.)
    rmSync(path, { force: true });
    if (!create(dataDir, path)) throw inUse(dataDir, holderOf(path) ?? 'unknown');
  }
  held.add(path);
  return {
    release() {
      if (!held.delete(path)) return;
      if (pidIn(path) === process.pid) rmSync(path, { force: true });
    },
  };
}

function create(dataDir: string, path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new Error(`DATA_DIR ${dataDir}: could not create ${LOCK_FILE}: ${(err as Error).message}`, { cause: err });
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The pid of a live holder; undefined when the file is a dead process's leftover. */
function holderOf(path: string): number | 'this process' | 'a process starting' | undefined {
  const pid = pidIn(path);
  if (pid === undefined) {
    // The pid is written right after the exclusive create: an empty file is a starter between the two, unless it
    // is old enough to be one that died there.
    const age = Date.now() - (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    return age < EMPTY_GRACE_MS ? 'a process starting' : undefined;
  }
  // In a container the server is often pid 1 in every life: our own pid is a leftover unless we took the lock.
  if (pid === process.pid) return held.has(path) ? 'this process' : undefined;
  return alive(pid) ? pid : undefined;
}

const EMPTY_GRACE_MS = 10_000;

function pidIn(path: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number(text.trim());
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function inUse(dataDir: string, holder: number | string): Error {
  const who = typeof holder === 'number' ? `process ${holder}` : holder;
  return new Error(
    `DATA_DIR ${dataDir}: in use by ${who} (${LOCK_FILE}); the embedded database allows one process at a time: stop it first, or set DATABASE_URL to run several processes on PostgreSQL`,
  );
}
