import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { startWorld } from '../../helpers/fixture.js';
import { call, startTestServer, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { orderBody, placeOrder } from '../orders/support.js';
import { openEventStream, orderEvents, type EventStream } from './support.js';

/** GET /admin/orders/stream: each staff user hears of exactly the order changes it may read, from any instance. */
let server: TestServer;
let second: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const open: EventStream[] = [];

beforeAll(async () => {
  ({ server, world, tokens } = await startWorld());
  // Another instance on the same database: changes made through one reach the streams of the other.
  second = await startTestServer({ database: server.database });
});
afterAll(async () => {
  for (const s of open) s.close();
  await second?.close();
  await server?.close();
});

async function stream(s: TestServer, who: string): Promise<EventStream> {
  const token = who in tokens ? tokens[who as StaffName] : who;
  const es = await openEventStream(`${s.url}/api/v1/admin/orders/stream`, token);
  open.push(es);
  return es;
}

const ready = (es: EventStream) => es.until((events) => events.some((e) => e.event === 'ready'));

describe('GET /admin/orders/stream', () => {
  it('sends each staff user the new orders and moves in its scope, from any instance', async () => {
    const watchers = {
      operatorA: await stream(second, 'operatorA'),
      operatorB: await stream(second, 'operatorB'),
      admin1: await stream(second, 'admin1'),
      admin2: await stream(second, 'admin2'),
      superadmin: await stream(server, 'superadmin'),
    };
    for (const es of Object.values(watchers)) {
      expect(es.status).toBe(200);
      expect(es.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(es.headers.get('cache-control')).toBe('no-store');
      await ready(es);
    }
    const atA = await placeOrder(server, world.keys.branch, orderBody(world));
    const atB = await placeOrder(
      server,
      world.keys.branch,
      orderBody(world, { cashbox: { id: world.exchanges.B }, clientAmount: 50 }),
    );
    const atC = await placeOrder(
      server,
      world.keys.otherBranch,
      orderBody(world, { cashbox: { id: world.exchanges.C }, clientAmount: 50 }),
    );
    const moved = await call(server, 'POST', `/admin/orders/${atA.id}/status`, {
      token: tokens.admin1,
      body: { status: 'CLIENTPAYMENTWAIT' },
    });
    expect(moved.status).toBe(200);

    const heard = async (es: EventStream, count: number) =>
      orderEvents(await es.until((events) => orderEvents(events).length >= count));
    const superEvents = await heard(watchers.superadmin, 4);
    expect(superEvents.map((e) => [e.orderId, e.fromStatus, e.toStatus])).toEqual([
      [atA.id, null, 'ORDERINIT'],
      [atB.id, null, 'ORDERINIT'],
      [atC.id, null, 'ORDERINIT'],
      [atA.id, 'ORDERINIT', 'CLIENTPAYMENTWAIT'],
    ]);
    expect(superEvents[0]).toMatchObject({ branchId: world.branches.b1, exchangeId: world.exchanges.A });
    expect(superEvents[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await heard(watchers.admin1, 3)).map((e) => e.orderId)).toEqual([atA.id, atB.id, atA.id]);
    expect((await heard(watchers.operatorA, 2)).map((e) => e.orderId)).toEqual([atA.id, atA.id]);
    expect((await heard(watchers.operatorB, 1)).map((e) => e.orderId)).toEqual([atB.id]);
    expect((await heard(watchers.admin2, 1)).map((e) => e.orderId)).toEqual([atC.id]);

    // Whatever else arrived since: nobody heard an order outside its scope.
    const last = await placeOrder(
      server,
      world.keys.branch,
      orderBody(world, { cashbox: { id: world.exchanges.B }, clientAmount: 60 }),
    );
    await heard(watchers.admin1, 4);
    expect(orderEvents(watchers.operatorA.events).every((e) => e.exchangeId === world.exchanges.A)).toBe(true);
    expect(orderEvents(watchers.admin2.events).every((e) => e.branchId === world.branches.b2)).toBe(true);
    expect(orderEvents(watchers.operatorA.events).map((e) => e.orderId)).not.toContain(last.id);
    for (const es of Object.values(watchers)) es.close();
  });

  it('starts from now: a new stream does not replay earlier changes', async () => {
    await placeOrder(server, world.keys.branch, orderBody(world));
    const es = await stream(server, 'superadmin');
    await ready(es);
    const next = await placeOrder(server, world.keys.branch, orderBody(world, { clientAmount: 70 }));
    const events = orderEvents(await es.until((e) => orderEvents(e).length >= 1));
    expect(events.map((e) => e.orderId)).toEqual([next.id]);
    es.close();
  });

  it('refuses a missing or invalid token (401), an API key (401) and an operator without orders:read (403)', async () => {
    for (const token of [undefined, 'not-a-jwt', world.keys.branch]) {
      const res = await fetch(`${server.url}/api/v1/admin/orders/stream`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(res.status).toBe(401);
      expect((await res.json()).statusCode).toBe(401);
    }
    const blind = await server.db
      .insertInto('staff_users')
      .values({
        email: 'blind@test.local',
        password_hash: 'x',
        role: 'operator',
        branch_id: world.branches.b1,
        permissions: ['clients:read'],
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const token = (await server.ctx.tokens.sign(blind.id)).accessToken;
    const res = await fetch(`${server.url}/api/v1/admin/orders/stream`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe('This staff user lacks the orders:read permission');
  });

  it('ends when the access token expires', async () => {
    // 3 to 4 s: the stream must open before the token expires, on a loaded machine too.
    const short = await import('jose').then(({ SignJWT }) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(world.staff.admin1.id))
        .setIssuer('pxs')
        .setAudience('pxs-staff')
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + 4)
        .sign(new TextEncoder().encode(server.config.jwt.secret)),
    );
    const es = await stream(server, short);
    await ready(es);
    await es.ended;
    expect(es.events.map((e) => e.event)).toEqual(['ready']);
  });

  // Each such request left a heartbeat, a recheck and an expiry timer and its subscription until the token expired.
  it('leaves nothing running for a client that went away before its stream opened', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const { port } = new URL(server.url);
    for (let i = 0; i < 20; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        `GET /api/v1/admin/orders/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokens.admin1}\r\n\r\n`,
      );
      socket.resetAndDestroy();
    }
    // A stream opened after them is ready once they have been handled: the same authentication, then the same feed.
    const es = await stream(server, 'admin1');
    await ready(es);
    es.close();
    await eventually(async () => timers() - before < 10, 5_000);
  });
});
