import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REDACT } from '../../src/app.js';
import { startWorld } from '../helpers/fixture.js';
import { call, type TestServer } from '../helpers/server.js';
import { staffToken } from '../helpers/staff.js';
import type { World } from '../helpers/world.js';

// The process's logger as `pxs serve` makes it (src/cli/lifecycle.ts), writing to memory.
const lines: string[] = [];
const logger = pino(
  { level: 'info', redact: REDACT },
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
      app.get('/api/v1/test/failure', async () => {
        throw new Error('database exploded');
      });
      // A failed statement as PGlite and pg report it: its bound values and the failing row ride on the error.
      app.get('/api/v1/test/statement-failure', async () => {
        throw Object.assign(new Error('null value in column "url" violates not-null constraint'), {
          code: '23502',
          query: 'insert into "webhooks" ("secret_key") values ($1)',
          params: ['whsec-4711'],
          detail: 'Failing row contains (whsec-4711).',
        });
      });
      // A Redis reply error, as ioredis makes it: the command it answered rides on it, an AUTH's password included.
      app.get('/api/v1/test/redis-failure', async () => {
        throw Object.assign(new Error('WRONGPASS invalid username-password pair or user is disabled.'), {
          command: { name: 'hello', args: ['3', 'AUTH', 'pxs', 'redis-pw-4713'] },
        });
      });
    },
  }));
});
afterAll(() => server.close());

/** The parsed lines with this request id, once `count` of them are written (the access line follows the response). */
async function linesOf(reqId: string, count: number): Promise<Record<string, unknown>[]> {
  for (let i = 0; i < 100; i++) {
    const found = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.reqId === reqId);
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`fewer than ${count} lines for ${reqId}: ${lines.join('')}`);
}

describe('request logging', () => {
  it('writes one access line per request with its request id, route and status, and never the key', async () => {
    // Without TRUST_PROXY a forwarded address is the client's own claim: the line keeps the peer's.
    const res = await call(server, 'GET', '/partner/offers', {
      key: w.keys.branch,
      query: { limit: 1 },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    expect(res.status).toBe(200);
    const reqId = res.headers.get('x-request-id')!;
    const [line] = await linesOf(reqId, 1);
    expect(line).toMatchObject({
      msg: 'request',
      level: 30,
      method: 'GET',
      url: '/api/v1/partner/offers?limit=1',
      route: '/api/v1/partner/offers',
      statusCode: 200,
      ip: '127.0.0.1',
    });
    expect(typeof line!.ms).toBe('number');
    expect(lines.join('')).not.toContain(w.keys.branch);
  });

  it("leaves a search's text and a list's filter out of the access line: they can hold a client's email or phone", async () => {
    const search = await call(server, 'GET', '/admin/clients', {
      token: await staffToken(server, w.staff.admin1.id),
      query: { q: 'ana.silva@example.com', limit: 5 },
    });
    const filtered = await call(server, 'GET', '/partner/clients', {
      key: w.keys.branch,
      query: { filter: JSON.stringify({ phone: '+351912345678' }), limit: 5 },
    });
    expect([search.status, filtered.status]).toEqual([200, 200]);
    const [searched] = await linesOf(search.headers.get('x-request-id')!, 1);
    const [listed] = await linesOf(filtered.headers.get('x-request-id')!, 1);
    expect(searched.url).toBe('/api/v1/admin/clients?q=[redacted]&limit=5');
    expect(listed.url).toBe('/api/v1/partner/clients?filter=[redacted]&limit=5');
    expect(lines.join('')).not.toMatch(/ana\.silva|912345678/);
  });

  it('leaves a key or token put in the query out of the access line, under any name', async () => {
    const urls: string[] = [];
    const queries: Record<string, string | number>[] = [
      { api_key: w.keys.branch },
      { token: 'eyJhbGciOi.secret.part' },
      { limit: 1, x: w.keys.public },
    ];
    for (const query of queries) {
      const res = await call(server, 'GET', '/partner/offers', { query });
      const [line] = await linesOf(res.headers.get('x-request-id')!, 1);
      urls.push(line.url as string);
    }
    expect(urls).toEqual([
      '/api/v1/partner/offers?api_key=[redacted]',
      '/api/v1/partner/offers?token=[redacted]',
      '/api/v1/partner/offers?limit=1&x=[redacted]',
    ]);
    expect(lines.join('')).not.toMatch(/sk_branch_|pk_|secret\.part/);
  });

  it("leaves the key of a rate monitor's URL (rates.xml?key=) out of every line, a refused secret key included", async () => {
    const secret = w.keys.branch;
    const monitor = await call(server, 'GET', '/partner/public/rates.xml', {
      query: { key: w.keys.public, exchangeId: w.exchanges.A },
    });
    const refused = await call(server, 'GET', '/partner/public/rates.xml', {
      query: { exchangeId: w.exchanges.A, key: secret },
    });
    const unknown = await call(server, 'GET', '/partner/public/rates.xml', { query: { key: `${w.keys.public}x` } });
    expect([monitor.status, refused.status, unknown.status]).toEqual([200, 400, 401]);
    const [served] = await linesOf(monitor.headers.get('x-request-id')!, 1);
    expect(served).toMatchObject({
      msg: 'request',
      statusCode: 200,
      url: `/api/v1/partner/public/rates.xml?key=[redacted]&exchangeId=${w.exchanges.A}`,
    });
    // The refusal of a secret key is noted (to tell its owner to roll it), by request id and address, without the key.
    const refusedLines = await linesOf(refused.headers.get('x-request-id')!, 2);
    expect(refusedLines.find((l) => l.level === 40)).toMatchObject({ msg: expect.stringMatching(/secret key.*roll/) });
    expect(refusedLines.find((l) => l.msg === 'request')).toMatchObject({
      statusCode: 400,
      url: `/api/v1/partner/public/rates.xml?exchangeId=${w.exchanges.A}&key=[redacted]`,
      ip: '127.0.0.1',
    });
    const [failed] = await linesOf(unknown.headers.get('x-request-id')!, 1);
    expect(failed.url).toBe('/api/v1/partner/public/rates.xml?key=[redacted]');
    expect(lines.join('')).not.toContain(w.keys.public);
    expect(lines.join('')).not.toContain(secret);
  });

  it('makes no child logger for requests that log only their access line, and one for a request that logs an error', async () => {
    const child = vi.spyOn(logger, 'child');
    try {
      for (let i = 0; i < 3; i++)
        expect((await call(server, 'GET', '/partner/public/exchanges', { key: w.keys.public })).status).toBe(200);
      expect((await call(server, 'GET', '/partner/offers', { key: 'sk_branch_notakey' })).status).toBe(401);
      expect(child).not.toHaveBeenCalled();

      const failed = await call(server, 'GET', '/test/failure', { headers: { 'x-request-id': 'trace-4711' } });
      expect(failed.status).toBe(500);
      expect(failed.body.message).toBe('Internal server error');
      const found = await linesOf('trace-4711', 2);
      expect(found.find((l) => l.level === 50)).toMatchObject({
        msg: 'request failed',
        err: { message: 'database exploded' },
      });
      expect(found.find((l) => l.level === 30)).toMatchObject({
        msg: 'request',
        statusCode: 500,
        route: '/api/v1/test/failure',
      });
      expect(child).toHaveBeenCalledTimes(1);
    } finally {
      child.mockRestore();
    }
  });

  it("never writes a failed statement's bound values or failing row", async () => {
    const failed = await call(server, 'GET', '/test/statement-failure', { headers: { 'x-request-id': 'trace-4712' } });
    expect(failed.status).toBe(500);
    const [line] = (await linesOf('trace-4712', 2)).filter((l) => l.level === 50);
    expect(line).toMatchObject({
      err: {
        code: '23502',
        query: 'insert into "webhooks" ("secret_key") values ($1)',
        params: '[redacted]',
        detail: '[redacted]',
      },
    });
    expect(lines.join('')).not.toContain('whsec-4711');
  });

  it('never writes the Redis command a reply error carries', async () => {
    expect(
      (await call(server, 'GET', '/test/redis-failure', { headers: { 'x-request-id': 'trace-4713' } })).status,
    ).toBe(500);
    const [line] = (await linesOf('trace-4713', 2)).filter((l) => l.level === 50);
    expect(line).toMatchObject({
      err: { message: 'WRONGPASS invalid username-password pair or user is disabled.', command: '[redacted]' },
    });
    expect(lines.join('')).not.toContain('redis-pw-4713');
  });

  it('gives request.log the level of the process logger, and a child on request', async () => {
    let seen: { level: string; childLevel: string; bindings: unknown } | undefined;
    const probe = await startWorld({
      loggerInstance: logger,
      beforeListen: (app) =>
        app.get('/api/v1/test/log', async (request) => {
          const sub = request.log.child({ step: 'probe' });
          seen = {
            level: request.log.level,
            childLevel: sub.level,
            bindings: (sub as unknown as pino.Logger).bindings(),
          };
          sub.info('probing');
          return { ok: true };
        }),
    });
    try {
      const res = await call(probe.server, 'GET', '/test/log');
      expect(res.status).toBe(200);
      const reqId = res.headers.get('x-request-id')!;
      expect(seen).toEqual({ level: 'info', childLevel: 'info', bindings: { reqId, step: 'probe' } });
      const found = await linesOf(reqId, 2);
      expect(found.map((l) => l.msg).sort()).toEqual(['probing', 'request']);
      expect(found.find((l) => l.msg === 'probing')).toMatchObject({ reqId, step: 'probe', level: 30 });
    } finally {
      await probe.server.close();
    }
  });
});
