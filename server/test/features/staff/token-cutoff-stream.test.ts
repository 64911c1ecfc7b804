import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { openEventStream, type EventStream } from '../order-feed/support.js';

/** The order stream re-checks its staff user every 30 s: a log out or a password change ends it by the next check. */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const open: EventStream[] = [];

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(async () => {
  for (const es of open) es.close();
  await server?.close();
});

async function stream(token: string): Promise<EventStream> {
  const es = await openEventStream(`${server.url}/api/v1/admin/orders/stream`, token);
  open.push(es);
  expect(es.status).toBe(200);
  await es.until((events) => events.some((e) => e.event === 'ready'));
  return es;
}

describe('the order stream of a voided token', () => {
  it("ends after a log out and after a password change; other users' streams go on", async () => {
    const loggedOut = await stream(tokens.admin1);
    const changed = await stream(tokens.operatorA);
    const bystander = await stream(tokens.superadmin);
    let bystanderEnded = false;
    void bystander.ended.then(() => {
      bystanderEnded = true;
    });

    // The log out comes from another device of the same user.
    const otherDevice = (await server.ctx.tokens.sign(world.staff.admin1.id)).accessToken;
    expect((await call(server, 'POST', '/auth/logout', { token: otherDevice })).status).toBe(204);
    const patched = await call(server, 'PATCH', `/admin/staff/${world.staff.operatorA.id}`, {
      token: tokens.superadmin,
      body: { password: 'another-long-password' },
    });
    expect(patched.status).toBe(200);

    await Promise.all([loggedOut.ended, changed.ended]);
    expect(bystanderEnded).toBe(false);
    // The client's reconnection with the same token is refused.
    const again = await fetch(`${server.url}/api/v1/admin/orders/stream`, {
      headers: { authorization: `Bearer ${tokens.admin1}` },
    });
    expect(again.status).toBe(401);
  }, 60_000);
});
