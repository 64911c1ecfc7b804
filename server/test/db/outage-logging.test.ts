import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliDatabase, listeningAt, spawnPxs, type CliDatabase } from '../cli/run.js';
import { usingPostgres } from '../helpers/database.js';
import { STARTS_PROCESSES } from '../helpers/processes.js';
import { call } from '../helpers/server.js';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

/*
 * What a real `pxs serve` logs through an outage of PostgreSQL (cut by a TCP relay): a line when it starts and one
 * when it ends, not one per refused request nor one per pooled connection. PostgreSQL pass only, as outage.test.ts.
 */
const POOL_SIZE = 6;
const REFUSED = 8;

let cli: CliDatabase;
let pgLink: TcpProxy;
let child: ChildProcessWithoutNullStreams;
let url: string;
let output: () => string = () => '';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lines = () =>
  output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; msg: string; [k: string]: unknown });
const WARN = 40;

describe.skipIf(!usingPostgres)('logging through a PostgreSQL outage', STARTS_PROCESSES, () => {
  beforeAll(async () => {
    cli = await cliDatabase();
    const pgUrl = new URL(cli.pg!.url!);
    pgLink = await tcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
    pgUrl.host = `127.0.0.1:${pgLink.port}`;
    child = spawnPxs(['serve', '--no-worker'], {
      ...cli.env,
      DATABASE_URL: pgUrl.toString(),
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_POOL_SIZE: String(POOL_SIZE),
    });
    const started = listeningAt(child);
    output = started.output;
    url = await started.url;
  }, 240_000);
  afterAll(async () => {
    child?.kill('SIGKILL');
    await pgLink?.close();
    await cli?.close();
  });

  it('warns once when requests start being refused and once when connections are lost, then says when it is over and how many were refused', async () => {
    // A login reads the database: an unknown email is a 401 when it is up, a 503 when it is not.
    const login = () =>
      call({ url }, 'POST', '/auth/login', { body: { email: 'nobody@outage.test', password: 'not-the-password' } });
    expect((await login()).status).toBe(401);
    const before = lines().length;

    await pgLink.cut();
    for (let i = 0; i < REFUSED; i++) {
      const res = await login();
      expect(res.status, res.text).toBe(503);
    }
    await sleep(500);
    await pgLink.restore();
    expect((await login()).status).toBe(401);
    const end = Date.now() + 5000;
    while (!lines().some((l) => l.msg.startsWith('the database is available again')) && Date.now() < end)
      await sleep(50);

    const during = lines().slice(before);
    const warnings = during.filter((l) => l.level >= WARN).map((l) => l.msg);
    // Before: a warning per refused request, and one per pooled connection that the cut closed.
    expect(
      warnings.filter((m) => m.includes('database unavailable')),
      warnings.join('\n'),
    ).toHaveLength(1);
    expect(
      warnings.filter((m) => m.includes('database connection')),
      warnings.join('\n'),
    ).toHaveLength(1);
    expect(warnings.join('\n')).not.toContain('closed by the server');
    expect(warnings.length, warnings.join('\n')).toBeLessThanOrEqual(2);
    const back = during.find((l) => l.msg.startsWith('the database is available again'));
    expect(back, during.map((l) => l.msg).join('\n')).toMatchObject({ refused: REFUSED, outageMs: expect.any(Number) });
    expect(back!.outageMs as number).toBeGreaterThanOrEqual(500);
  }, 60_000);
});
