import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../helpers/server.js';
import type { World } from '../helpers/world.js';
import { startWorld } from '../helpers/fixture.js';

const REDIS = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');

/** A TCP relay to the real Redis that the test can cut, as a network failure would. */
async function relay(): Promise<{ port: number; cut(): void; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(Number(REDIS.port || 6379), REDIS.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    server,
    cut() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}

let server: TestServer;
let w: World;
let link: Awaited<ReturnType<typeof relay>>;

beforeAll(async () => {
  link = await relay();
  ({ server, world: w } = await startWorld({
    env: { REDIS_URL: `redis://127.0.0.1:${link.port}`, RATE_LIMIT_PER_MINUTE: '1000' },
  }));
});
afterAll(async () => {
  link.cut();
  await server?.close();
});

/** pxs_dependency_up by dependency, as /metrics reads. */
async function dependencyUp(): Promise<Record<string, string>> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Object.fromEntries(
    [...text.matchAll(/^pxs_dependency_up\{dependency="(\w+)"\} (\d)$/gm)].map((m) => [m[1], m[2]]),
  );
}

describe('when Redis goes away', () => {
  it('keeps serving with per-instance limits and reports itself degraded', async () => {
    expect((await call(server, 'GET', '/partner/offers', { key: w.keys.branch })).status).toBe(200);
    expect(await dependencyUp()).toEqual({ database: '1', redis: '1' });
    link.cut();
    for (let i = 0; i < 3; i++) {
      const res = await call(server, 'GET', '/partner/offers', { key: w.keys.branch });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    }
    const ready = await fetch(`${server.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'degraded', redis: 'degraded' });
    // The same, for an alert on Prometheus.
    expect(await dependencyUp()).toEqual({ database: '1', redis: '0' });
  });
});
