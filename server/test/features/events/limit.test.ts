import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { orderBody } from '../orders/support.js';

let server: TestServer;
let world: World;
beforeAll(async () => {
  ({ server, world } = await startWorld());
}, 180_000);
afterAll(async () => {
  await server?.close();
});

describe('GET /partner/events: limit', () => {
  it('is optional in the OpenAPI document (clients generated from it may leave it out), 1–1000, default 100', async () => {
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    const params: { name: string; in: string; required?: boolean; schema: Record<string, unknown> }[] =
      doc.paths['/api/v1/partner/events'].get.parameters;
    const limit = params.find((p) => p.in === 'query' && p.name === 'limit');
    expect(limit?.required ?? false).toBe(false);
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 1000, default: 100 });
  });

  it('defaults to 100 events a page when left out, and still refuses 0, 1001 and a non-integer', async () => {
    // 101 orders: at least 101 events, so a default page is full and has more.
    for (let i = 0; i < 101; i++) {
      expect(
        (
          await call(server, 'POST', '/partner/orders', {
            key: world.keys.branch,
            body: orderBody(world, { clientAmount: 100 + i }),
          })
        ).status,
      ).toBe(201);
    }
    const first = await call(server, 'GET', '/partner/events', { key: world.keys.branch });
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(100);
    expect(first.body.hasMore).toBe(true);
    const rest = await call(server, 'GET', '/partner/events', {
      key: world.keys.branch,
      query: { after: first.body.next },
    });
    expect(rest.status).toBe(200);
    expect(rest.body.data.length).toBeGreaterThan(0);
    for (const limit of [0, 1001, 2.5, 'many']) {
      const res = await call(server, 'GET', '/partner/events', { key: world.keys.branch, query: { limit } });
      expect(res.status, String(limit)).toBe(400);
    }
  });
});
