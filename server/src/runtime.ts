import type { Config } from './config/config.js';
import { createContext, type AppContext } from './context.js';
import { openDatabase, type DatabaseHandle } from './db/database.js';
import { databaseUnavailable } from './db/errors.js';
import { migrateToLatest } from './db/migrate.js';
import { OutageCount } from './db/outage-log.js';
import type { Log } from './log.js';

export interface RuntimeOptions {
  poolSize?: number;
}

/** Opens the database (migrated to the latest version) and the process's shared services. */
export async function startRuntime(config: Config, log: Log, options: RuntimeOptions = {}): Promise<AppContext> {
  // A cut drops every idle connection of the pool at once: one line for the outage, not one per connection, and
  // not "closed by the server", which a cut route or a failover is not.
  const lost = new OutageCount(log, {
    started: 'a database connection was lost; new ones are made as they are needed',
    counted: 'lost',
  });
  const opened: DatabaseHandle = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: options.poolSize ?? config.databasePoolSize,
    onIdleError: (err) => lost.failed({ err: err.message }),
  });
  try {
    const applied = await migrateToLatest(opened.db);
    if (applied.length > 0) log('info', 'database migrated', { applied, kind: opened.kind });
    opened.limitQueries(config.databaseQueryTimeoutMs);
    opened.afterStatement(() => lost.succeeded());
    const ctx = await createContext(config, opened, log);
    const close = ctx.close.bind(ctx);
    ctx.close = async () => {
      await close();
      await opened.close();
    };
    return ctx;
  } catch (err) {
    await opened.close();
    throw unreachable(config, err);
  }
}

/**
 * A start that cannot reach PostgreSQL, or is refused by it, says where it looked: pg's own words ("Connection
 * terminated unexpectedly", 'database "x" does not exist') name neither the host nor the setting. The URL's
 * password is never part of it.
 */
function unreachable(config: Config, err: unknown): unknown {
  if (!config.databaseUrl) return err;
  const url = new URL(config.databaseUrl);
  const at = `${url.hostname}:${url.port || 5432}`;
  if (databaseUnavailable(err))
    return new Error(`DATABASE_URL: cannot reach PostgreSQL at ${at}: ${(err as Error).message}`, { cause: err });
  // Reached, but refused: a database that does not exist (3D000) or credentials it does not take (28xxx).
  const code = (err as { code?: unknown }).code;
  if (code === '3D000' || (typeof code === 'string' && code.startsWith('28')))
    return new Error(`DATABASE_URL: PostgreSQL at ${at} refused: ${(err as Error).message}`, { cause: err });
  return err;
}
