import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { startWorld } from '../../helpers/fixture.js';
import type { TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';
import { openEventStream, type EventStream } from './support.js';

/** GET /admin/orders/stream holds a socket and timers per stream: one staff user may keep at most 10 open per instance. */
let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
const open: EventStream[] = [];
const MESSAGE = 'Too many open order streams for this staff user (at most 10); close one first';

beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(async () => {
  for (const es of open) es.close();
  await server?.close();
});

const url = () => `${server.url}/api/v1/admin/orders/stream`;
const tokenOf = (who: string) => (who in tokens ? tokens[who as StaffName] : who);

/** A stream that opened and said it is ready. */
async function stream(who: string): Promise<EventStream> {
  const es = await openEventStream(url(), tokenOf(who));
  open.push(es);
  expect(es.status).toBe(200);
  await es.until((events) => events.some((e) => e.event === 'ready'));
  return es;
}

async function refused(who: string): Promise<void> {
  const res = await fetch(url(), { headers: { authorization: `Bearer ${tokenOf(who)}` } });
  expect(res.status).toBe(429);
  expect(res.headers.get('retry-after')).toBe('3');
  expect(await res.json()).toEqual({ statusCode: 429, message: MESSAGE, error: 'Too Many Requests', retryAfter: 3 });
}

/** A stream that opens once the server has seen an earlier one end (a client's abort reaches it a moment later). */
async function streamOnceFreed(who: StaffName): Promise<EventStream> {
  const es = await eventually(async () => {
    const attempt = await openEventStream(url(), tokenOf(who));
    if (attempt.status === 200) return attempt;
    expect(attempt.status).toBe(429);
    attempt.close();
    return false;
  });
  open.push(es);
  await es.until((events) => events.some((e) => e.event === 'ready'));
  return es;
}

describe('open order streams per staff user', () => {
  it('refuses the 11th with 429 until one is closed; another staff user is not affected', async () => {
    const streams: EventStream[] = [];
    for (let i = 0; i < 10; i++) streams.push(await stream('admin1'));
    await refused('admin1');
    // The refusal spent nothing: it is refused again, and another user's stream opens.
    await refused('admin1');
    const other = await stream('admin2');

    streams.shift()!.close();
    streams.push(await streamOnceFreed('admin1'));
    await refused('admin1');
    // The other user's stream was untouched by all this.
    expect(other.events.map((e) => e.event)).toEqual(['ready']);
    for (const es of [...streams, other]) es.close();
  });

  it('gives the slot back when the server ends a stream (token expiry)', async () => {
    const streams: EventStream[] = [];
    for (let i = 0; i < 9; i++) streams.push(await stream('operatorA'));
    // Signed last, 3 to 4 s before it expires: the stream must open, and the next be refused, before then.
    const short = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(world.staff.operatorA.id))
      .setIssuer('pxs')
      .setAudience('pxs-staff')
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 4)
      .sign(new TextEncoder().encode(server.config.jwt.secret));
    const expiring = await stream(short);
    await refused('operatorA');
    await expiring.ended;
    // The server ended it: its slot was given back before the client saw the end.
    streams.push(await stream('operatorA'));
    for (const es of streams) es.close();
  });

  it('lets exactly 10 of a burst through: the slot is taken before the stream opens', async () => {
    const burst = await Promise.all(Array.from({ length: 13 }, () => openEventStream(url(), tokens.operatorB)));
    open.push(...burst);
    expect(burst.map((es) => es.status).sort()).toEqual([...Array(10).fill(200), 429, 429, 429]);
    for (const es of burst) es.close();
  });
});
