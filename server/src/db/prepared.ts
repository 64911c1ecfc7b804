import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * Runs every statement as a named prepared statement, so PostgreSQL parses and plans each distinct SQL text
 * once per connection instead of on every execution (planning the offers page cost three times its
 * execution). Names derive from the SQL text; past `limit` distinct texts (dynamic filters and sorts can
 * make many), new texts run unnamed so no connection accumulates statements without bound.
 */
export function preparingPool(pool: pg.Pool, limit = 500): PostgresPool {
  const names = new Map<string, string>();
  const nameFor = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < limit) {
      name = `pxs_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      names.set(text, name);
    }
    return name;
  };
  // One wrapper per pooled connection, for the connection's life. Kysely caches its own connection object in a
  // WeakMap keyed by what connect() returns: a new wrapper per checkout made it build and cache a new one for
  // every query. Those entries (each value holds its key) were not freed by scavenges and waited for a
  // mark-compact: 0.6 KB of promoted garbage per request, twice as many mark-compacts at half load.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => ({
    query: ((text: string, values?: unknown[]) => {
      const name = values && values.length > 0 ? nameFor(text) : undefined;
      return name ? client.query({ name, text, values }) : client.query(text, values);
    }) as unknown as PostgresPoolClient['query'],
    release: () => client.release(),
  });
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let wrapped = wrappers.get(client);
      if (!wrapped) {
        wrapped = wrap(client);
        wrappers.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
