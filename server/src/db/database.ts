import { Kysely, PostgresDialect, type LogEvent, type Transaction } from 'kysely';
import type pg from 'pg';
import { listenPglite, listenPostgres, type ListenHandlers, type Listening } from './notifications.js';
import { lockDataDir, type DataDirLock } from './data-dir-lock.js';
import { ensureDataDir, initialiseDataDir } from './pglite-data-dir.js';
import { preparingPool } from './prepared.js';
import { getTypeParser } from './type-parsers.js';
import type { DB } from './schema.js';

export type Database = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Repositories take either the database or an open transaction: `(trx ?? db)`. */
export type Executor = Database | Tx;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  ping(): Promise<void>;
  /** Opens every connection of the pool now, so that the first requests do not wait for them (PGlite: nothing to do). */
  warm(): Promise<void>;
  /** PGlite only: the data as a dump, which `template` starts another in-memory database from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
  /** LISTENs on `channel` until closed (PostgreSQL: on a connection of its own, reconnecting by itself). */
  listen(channel: string, handlers: ListenHandlers): Listening;
  /** Statements run through `db` so far: tests prove that a read ran none. */
  queryCount(): number;
  /** Calls `listener` after each statement that succeeds (how the end of an outage is seen); returns its removal. */
  afterStatement: (listener: () => void) => () => void;
  /**
   * From now on a statement not answered within `ms` (0: no limit) fails as the database being unavailable, and
   * its connection is dropped. A connection cut without a reset (a dropped route, a failover behind a virtual
   * address) would otherwise hold its request, and its place in the pool, until TCP gives up, about 15 minutes.
   * Set after the migrations, which may rightly take longer. PGlite runs in this process: nothing to limit.
   */
  limitQueries(ms: number): void;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** Told when PostgreSQL closes an idle pooled connection (the pool replaces it). */
  onIdleError?: (err: Error) => void;
  /**
   * In memory only: start from this dump (PGlite's `dumpDataDir`) instead of a new cluster. Creating one runs
   * initdb in WASM, about 4 s; loading a dump about 1 s (the tests start each file from a migrated one).
   */
  template?: Blob;
}

/** The only place that decides between embedded PGlite and a PostgreSQL server. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize ?? 10, options.onIdleError)
    : openPglite(options.dataDir, options.template);
}

// Each driver is imported only when chosen: PGlite's module was 1.3 MB of an API process's heap on PostgreSQL,
// marked at every full collection for nothing.
async function openPostgres(url: string, max: number, onIdleError?: (err: Error) => void): Promise<DatabaseHandle> {
  const {
    default: { Pool, Client },
  } = await import('pg');
  // A fixed-size pool: pg-pool closes a connection idle for 10 s unless the pool is at `min`. After any lull of
  // 10 s, the next requests each waited for a new backend (fork, authentication, a cold catalogue cache, every
  // statement prepared again): 60–90 ms at the p99 of the first second of load.
  // No connectionTimeoutMillis on the pool: pg-pool applies it to waiting for a free connection too, and under load
  // the webhook workers' claims and records then failed and their attempts were sent again.
  // A connection attempt alone is bounded, through the Client the pool makes: behind a cut route it would wait for
  // TCP's retries, about two minutes, while its request waited with it.
  class BoundedClient extends Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    }
  }
  const pool = new Pool({
    connectionString: url,
    max,
    min: max,
    types: { getTypeParser } as pg.CustomTypesConfig,
    application_name: 'pxs',
    Client: BoundedClient,
  });
  // An idle connection closed by the server (restart, failover, admin) is dropped from the pool and replaced on
  // the next checkout; without a listener the pool's 'error' event would end the process.
  pool.on('error', (err) => onIdleError?.(err));
  // pg-pool listens for errors only on idle clients. A connection lost while checked out (mid-query, inside a
  // transaction) emits 'error' on its client, which with no listener ends the process: the query in flight
  // rejects on its own, the request fails with a 503 and, as the client is no longer queryable, the pool
  // discards it on release. This listener only has to exist.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const counter = queryCounter();
  const preparing = preparingPool(pool);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: preparing }), log: counter.log });
  return {
    db,
    kind: 'postgres',
    listen: (channel, handlers) => listenPostgres(Client, url, channel, handlers),
    queryCount: counter.count,
    afterStatement: counter.afterStatement,
    limitQueries: preparing.limitQueries,
    ping: async () => {
      await pool.query('select 1');
    },
    warm: async () => {
      const clients = await Promise.all(Array.from({ length: max }, () => pool.connect()));
      for (const client of clients) client.release();
    },
    close: () => db.destroy(),
  };
}

async function openPglite(dataDir: string, template?: Blob): Promise<DatabaseHandle> {
  const inMemory = dataDir === 'memory://';
  let lock: DataDirLock | undefined;
  if (!inMemory) {
    ensureDataDir(dataDir);
    // Before initialising too: two first starts on a new directory would otherwise both run initdb into it.
    lock = lockDataDir(dataDir);
  }
  try {
    if (!inMemory) await initialiseDataDir(dataDir);
    const [{ PGlite }, { PGliteDialect }] = await Promise.all([
      import('@electric-sql/pglite'),
      import('kysely-pglite-dialect'),
    ]);
    const client = inMemory ? new PGlite({ loadDataDir: template }) : new PGlite(dataDir);
    try {
      await client.waitReady;
    } catch (err) {
      throw inMemory
        ? err
        : new Error(`DATA_DIR ${dataDir}: the embedded database could not be opened: ${(err as Error).message}`, {
            cause: err,
          });
    }
    const counter = queryCounter();
    const db = new Kysely<DB>({ dialect: new PGliteDialect(client), log: counter.log });
    return {
      db,
      kind: 'pglite',
      listen: (channel, handlers) => listenPglite(client, channel, handlers),
      queryCount: counter.count,
      afterStatement: counter.afterStatement,
      limitQueries: () => undefined,
      ping: async () => {
        await client.query('select 1');
      },
      warm: async () => undefined,
      dump: () => client.dumpDataDir('none'),
      close: async () => {
        await db.destroy();
        lock?.release();
      },
    };
  } catch (err) {
    lock?.release();
    throw err;
  }
}

/** How long making a PostgreSQL connection may take; generous, so that a saturated server is not taken for a cut. */
const CONNECT_TIMEOUT_MS = 5000;

/** Kysely's log hook: counts every statement, and tells listeners of each one that succeeded. */
function queryCounter() {
  let n = 0;
  const listeners = new Set<() => void>();
  return {
    log: (event: LogEvent) => {
      n++;
      if (event.level === 'query') for (const listener of listeners) listener();
    },
    count: () => n,
    afterStatement: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
