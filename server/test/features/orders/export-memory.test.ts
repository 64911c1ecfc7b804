import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usingPostgres } from '../../helpers/database.js';
import { call } from '../../helpers/server.js';
import { cliDatabase, listeningAt, type CliDatabase } from '../../cli/run.js';
// @ts-expect-error: a plain JavaScript module beside the CLI's entry, without types
import { STARTUP_FLAGS } from '../../../bin/v8-flags.js';

/** The CLI as `npm start` runs it: its memory is what this test measures, so with the service's V8 settings. */
const PXS_BIN = fileURLToPath(new URL('../../../bin/pxs.js', import.meta.url));

const ORDERS = 1_000_000;
const LIMIT_MB = 64;
/** A hook's time: the seed of a million orders takes a minute or two on two shared cores. */
const SEEDING = 480_000;

/** The resident memory of a process, in MB, as the kernel counts it. */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}

// A million orders exported from a real `pxs serve` process, whose memory is read from /proc while it streams.
// PostgreSQL only (DATABASE_URL set): PGlite cannot seed a million orders in a test's reasonable time, and a second
// process cannot open an embedded database the test also holds.
describe.skipIf(!usingPostgres)('GET /admin/orders?format=csv of a million orders', { timeout: 600_000 }, () => {
  let cli: CliDatabase;
  let child: ChildProcessWithoutNullStreams | undefined;
  let url: string;
  let token: string;

  beforeAll(async () => {
    cli = await cliDatabase();
    const env = {
      ...cli.env,
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      BOOTSTRAP_ADMIN_EMAIL: 'root@export.test',
      BOOTSTRAP_ADMIN_PASSWORD: 'export-pass-123',
    };
    child = spawn(process.execPath, [...(STARTUP_FLAGS as string[]), PXS_BIN, 'serve', '--no-worker'], {
      env,
      stdio: 'pipe',
    });
    url = await listeningAt(child).url;
    const login = await call({ url }, 'POST', '/auth/login', {
      body: { email: 'root@export.test', password: 'export-pass-123' },
    });
    token = login.body.accessToken;
    const db = cli.pg!.db;
    const branch = await db.insertInto('branches').values({ name: 'Export' }).returning('id').executeTakeFirstOrThrow();
    const exchange = await db
      .insertInto('exchanges')
      .values({ branch_id: branch.id, name: 'Export office', updated_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const [c1, c2] = await db
      .insertInto('currencies')
      .values([
        { code: 'USD', name: 'US Dollar', decimals: 2, updated_at: new Date() },
        { code: 'EUR', name: 'Euro', decimals: 2, updated_at: new Date() },
      ])
      .returning('id')
      .execute();
    // The export reads by primary key (keyset pages by id): the other indexes of orders only slow the seed down.
    const { rows: indexes } = await sql<{ name: string }>`
      select i.indexname as name from pg_indexes i
      where i.tablename = 'orders' and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`.execute(
      db,
    );
    for (const i of indexes) await sql`drop index ${sql.id(i.name)}`.execute(db);
    // One statement, as the scale benchmark's seed makes orders: finops (no offer), every status, a minute apart.
    await sql`
      insert into orders (hashed_id, branch_id, cashbox_id, currency1_id, currency2_id, client_amount, exchange_amount,
        status, operation_type, source, comment, created_at, updated_at)
      select 'export-' || g, ${branch.id}::int, ${exchange.id}::int, ${c1!.id}::int, ${c2!.id}::int,
        (1 + (g::bigint * 7919) % 100000) / 100.0, (1 + (g::bigint * 104729) % 90000) / 100.0,
        (array['ORDERINIT','CLIENTPAYMENTWAIT','EXCHANGEPAYMENTWAIT','CASHOUT','SUCCESS','CANCEL'])[1 + g % 6],
        'finop', case when g % 4 = 0 then 'counter' else 'partner' end, 'export',
        timestamptz '2024-01-01' + g * interval '1 minute', timestamptz '2024-01-01' + g * interval '1 minute'
      from generate_series(1, ${ORDERS}::int) g`.execute(db);
    await sql`analyze orders`.execute(db);
  }, SEEDING);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await cli?.close();
  }, SEEDING);

  it(`streams every row while the process grows by less than ${LIMIT_MB} MB`, async () => {
    const pid = child!.pid!;
    // A first small export warms the code paths (compiled statements, the CSV writer) the baseline should include.
    const warm = await fetch(`${url}/api/v1/admin/orders?format=csv&filter=${encodeURIComponent('{"userId":1}')}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(warm.status).toBe(200);
    await warm.text();
    const baseline = rssMb(pid);
    let peak = baseline;
    const samples: number[] = [];

    const res = await fetch(`${url}/api/v1/admin/orders?format=csv`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    let lines = 0;
    let bytes = 0;
    let chunks = 0;
    for await (const chunk of res.body!) {
      bytes += chunk.byteLength;
      for (let i = 0; i < chunk.byteLength; i++) if (chunk[i] === 10) lines++;
      // Sampled by progress, not by time: every 64 chunks of the download.
      if (++chunks % 64 === 0) {
        const rss = rssMb(pid);
        peak = Math.max(peak, rss);
        if (chunks % 4096 === 0) samples.push(Math.round(rss));
      }
    }
    peak = Math.max(peak, rssMb(pid));
    expect(lines).toBe(ORDERS + 1);
    expect(bytes).toBeGreaterThan(ORDERS * 100);
    expect(
      peak - baseline,
      `RSS from ${baseline.toFixed(1)} MB to a peak of ${peak.toFixed(1)} MB (${samples.join(', ')})`,
    ).toBeLessThan(LIMIT_MB);
  });
});
