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
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      return {
        query: ((text: string, values?: unknown[]) => {
          const name = values && values.length > 0 ? nameFor(text) : undefined;
          return name ? client.query({ name, text, values }) : client.query(text, values);
        }) as unknown as PostgresPoolClient["query"],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}
