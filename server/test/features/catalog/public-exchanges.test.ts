import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type TestServer } from '../../helpers/server.js';
import type { World } from '../../helpers/world.js';
import { startWorld } from '../../helpers/fixture.js';

let server: TestServer;
let world: World;

beforeAll(async () => ({ server, world } = await startWorld()));
afterAll(() => server?.close());

describe('GET /partner/public/exchanges', () => {
  it("lists every exchange of the key's branch with contacts, schedule and the schedule's time zone", async () => {
    const res = await call(server, 'GET', '/partner/public/exchanges', { key: world.keys.public });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { id: number }) => e.id)).toEqual([
      world.exchanges.A,
      world.exchanges.B,
      world.exchanges.X,
    ]);
    expect(res.body[0]).toEqual({
      id: world.exchanges.A,
      name: 'Exchange A',
      exchangeActive: true,
      contacts: {
        address: '1 A Street',
        phoneNumber: '+10000000001',
        chat: 'https://chat.example/a',
        location: { latitude: 10.5, longitude: -20.25 },
      },
      schedule: [
        { dayOfWeek: 1, openTime: '09:00', closeTime: '18:00', isClosed: false },
        { dayOfWeek: 7, openTime: '00:00', closeTime: '00:00', isClosed: true },
      ],
      // The hours are the office's local time: a widget on a page elsewhere needs its zone to say "open now".
      timezone: 'UTC',
    });
    expect(res.body[2].exchangeActive).toBe(false);
    expect(res.body[1].contacts.location).toBeNull();
  });

  it('shows another branch only its own exchanges', async () => {
    const res = await call(server, 'GET', '/partner/public/exchanges', { key: world.keys.otherPublic });
    expect(res.status).toBe(200);
    expect(res.body.map((e: { id: number }) => e.id)).toEqual([world.exchanges.C]);
  });
});
