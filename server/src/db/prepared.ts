import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * Marks a statement to be planned on every execution with its values: a text starting with it runs unnamed,
 * and PostgreSQL plans an unnamed statement for the values it is given (a custom plan). For statements whose
 * best plan depends on the values: a list page, whose LIMIT and filter ranges a generic plan has to guess.
 */
export const PLAN_PER_EXECUTION = '/* plan per execution */ ';

/** Whether preparingPool runs this text as a named prepared statement (PostgreSQL may then use a generic plan). */
export function runsPrepared(text: string, values: readonly unknown[]): boolean {
  return values.length > 0 && !text.startsWith(PLAN_PER_EXECUTION);
}

/**
 * Runs every statement with parameters as a named prepared statement, so PostgreSQL parses and plans each
 * distinct SQL text once per connection instead of on every execution (planning the offers page cost three
 * times its execution). Names derive from the SQL text; past `limit` distinct texts (dynamic filters and sorts
 * can make many), new texts run unnamed so no connection accumulates statements without bound. Texts marked
 * PLAN_PER_EXECUTION run unnamed: after five executions of a named statement PostgreSQL may switch to a
 * generic plan, chosen without the values, and for a list page on a large table that plan read and sorted
 * the whole branch.
 *
 * After `limitQueries(ms)`, each statement also has that long to be answered (DatabaseHandle.limitQueries).
 */
export function preparingPool(pool: pg.Pool, limit = 500): PostgresPool & { limitQueries: (ms: number) => void } {
  let timeoutMs = 0;
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
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let severed: Error | undefined;
    return {
      query: ((text: string, values?: unknown[]) => {
        const name = values && runsPrepared(text, values) ? nameFor(text) : undefined;
        if (timeoutMs === 0) return name ? client.query({ name, text, values }) : client.query(text, values);
        // pg reads `query_timeout` from a statement's config too; its types list it only among the client's options.
        const statement = { name, text, values, query_timeout: timeoutMs } as pg.QueryConfig;
        return client.query(statement).catch((err: Error) => {
          if (err.message === QUERY_TIMEOUT && !severed) {
            severed = err;
            sever(client);
          }
          throw err;
        });
      }) as unknown as PostgresPoolClient['query'],
      // Released with the error, the pool drops the connection at once rather than when its socket has closed.
      release: () => client.release(severed),
    };
  };
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
    limitQueries: (ms) => {
      timeoutMs = ms;
    },
  };
}

/** pg's error for a statement not answered within its `query_timeout`. */
const QUERY_TIMEOUT = 'Query read timeout';

/**
 * A connection that left a statement unanswered is not used again: its socket is destroyed, so the statements
 * queued behind it fail at once, the transaction's ROLLBACK too, and the pool replaces it on release. Ending it
 * politely would wait for a server that may never answer (a cut without a reset).
 */
function sever(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
