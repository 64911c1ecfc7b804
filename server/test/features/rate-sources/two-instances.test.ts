import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRatePoller } from '../../../src/features/rate-sources/poller.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import { fixture, recordingSink, startSourceServer, type SourceServer } from './support.js';

let first: TestServer;
let second: TestServer;
let tokens: Record<StaffName, string>;
let source: SourceServer;

beforeAll(async () => {
  ({ server: first, tokens } = await startWorld());
  // A second instance: its own context, pool and poller on the same database, as a second `pxs serve` would be.
  second = await startTestServer({ database: first.database });
  source = await startSourceServer();
});
afterAll(async () => {
  await source?.close();
  await second?.close();
  await first?.close();
});

describe('the poll lease with two instances', () => {
  it('reads a source of intervalSeconds 1 once a second between them: 19–21 reads in 20 s', async () => {
    source.serve('/rates', { status: 200, body: fixture('rates.json') });
    const sinks = [recordingSink(), recordingSink()];
    const pollers = [startRatePoller(first.ctx, sinks[0].sink), startRatePoller(second.ctx, sinks[1].sink)];
    try {
      const res = await call(first, 'POST', '/admin/rate-sources', {
        token: tokens.admin1,
        body: { name: 'Every second', kind: 'json', url: source.url('/rates'), intervalSeconds: 1 },
      });
      expect(res.status, res.text).toBe(201);
      await sleep(20_000);
    } finally {
      await Promise.all(pollers.map((p) => p.stop()));
    }
    const reads = source.hits('/rates');
    expect(reads).toBeGreaterThanOrEqual(19);
    expect(reads).toBeLessThanOrEqual(21);
    // Every read was made, recorded and handed on by exactly one of the two.
    expect(sinks[0].applied.length + sinks[1].applied.length).toBe(reads);
  });
});
