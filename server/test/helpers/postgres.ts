import pg from 'pg';

/** The same server as `url`, another database. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** One statement on a connection of its own (CREATE and DROP DATABASE cannot run inside a pool's transaction). */
export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/**
 * pg's pool.end() resolves before its sockets close. A forced drop would then kill them mid-goodbye (FATAL 57P01
 * surfacing as an unhandled error), and CREATE DATABASE … TEMPLATE refuses a template anyone is still connected
 * to: both wait for the sessions to leave first.
 */
export async function waitForSessionsToEnd(url: string, database: string, timeoutMs = 2000): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
      const { rows } = await client.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
        database,
      ]);
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}
