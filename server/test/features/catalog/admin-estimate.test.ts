import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';

let server: TestServer;
let w: World;
let tokens: Record<StaffName, string>;

beforeAll(async () => ({ server, world: w, tokens } = await startWorld()));
afterAll(() => server?.close());

const body = (over: Record<string, unknown> = {}) => ({
  exchangeId: w.exchanges.A,
  sourceCurrencyId: w.currencies.USD,
  destCurrencyId: w.currencies.EUR,
  amount: 100.01,
  ...over,
});
const staffEstimate = (token: string, b: Record<string, unknown>) =>
  call(server, 'POST', '/admin/estimate', { token, body: b });
const partnerEstimate = (b: Record<string, unknown>) =>
  call(server, 'POST', '/partner/public/estimate', { key: w.keys.public, body: b });

describe('POST /admin/estimate — the counter prices as the partner estimate does', () => {
  it.each([
    ['source', 100.01],
    ['dest', 92.16],
  ])('gives the partner estimate’s figures for an amount in %s', async (direction, amount) => {
    const b = body({ direction, amount });
    const [staff, partner] = await Promise.all([staffEstimate(tokens.operatorA, b), partnerEstimate(b)]);
    expect(staff.status, staff.text).toBe(200);
    expect(staff.body).toEqual(partner.body);
  });

  it("answers an operator 404 for an exchange not its own, and an admin 404 for another branch's", async () => {
    const other = await staffEstimate(tokens.operatorA, body({ exchangeId: w.exchanges.B }));
    expect(other.status).toBe(404);
    const admin = await staffEstimate(tokens.admin1, body({ exchangeId: w.exchanges.B }));
    expect(admin.status, admin.text).toBe(200);
    const otherBranch = await staffEstimate(tokens.admin1, body({ exchangeId: w.exchanges.C }));
    expect(otherBranch.status).toBe(404);
  });

  it('refuses a staff user without orders:write, and bad input with a 400', async () => {
    expect((await staffEstimate(tokens.readOnlyA, body())).status).toBe(403);
    const bad = await staffEstimate(tokens.operatorA, body({ amount: -1 }));
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors ?? {})).toContain('amount');
    expect((await call(server, 'POST', '/admin/estimate', { body: body() })).status).toBe(401);
  });
});
