import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../helpers/fixture.js';
import { call, type TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';

/*
 * The end of an outage is seen by any app on the database, not only by `pxs serve` (outage-logging.test.ts): the
 * app built by the test helper, as the bench's, logs it at the first statement that succeeds. On either database: the
 * outage is a handler failing as a lost connection does.
 */
const lines: string[] = [];
const logger = pino(
  { level: 'info' },
  {
    write: (line: string) => {
      lines.push(line);
    },
  },
);
let server: TestServer;
let w: World;

beforeAll(async () => {
  ({ server, world: w } = await startWorld({
    loggerInstance: logger,
    beforeListen: (app) => {
      app.get('/api/v1/test/unavailable', async () => {
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      });
    },
  }));
});
afterAll(() => server.close());

const logged = () =>
  lines
    .map((l) => JSON.parse(l) as { level: number; msg: string; [k: string]: unknown })
    .filter((l) => l.msg !== 'request');

describe('an outage seen by an app alone', () => {
  it('warns once for the refused requests, and says when a statement succeeds again how many were refused', async () => {
    const before = logged().length;
    for (let i = 0; i < 3; i++) expect((await call(server, 'GET', '/test/unavailable')).status).toBe(503);
    expect((await call(server, 'GET', '/partner/offers', { key: w.keys.branch, query: { limit: 1 } })).status).toBe(
      200,
    );
    const seen = logged().slice(before);
    expect(seen.map((l) => [l.level, l.msg])).toEqual([
      [40, 'database unavailable: requests that need it are answered 503 until it is back'],
      [30, 'the database is available again; requests are served'],
    ]);
    expect(seen[1]).toMatchObject({ refused: 3 });
    expect(typeof seen[1]!.outageMs).toBe('number');
  });
});
