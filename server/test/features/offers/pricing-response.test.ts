import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld } from '../../helpers/fixture.js';
import { call, type TestServer } from '../../helpers/server.js';
import type { StaffName } from '../../helpers/staff.js';
import type { World } from '../../helpers/world.js';

let server: TestServer;
let world: World;
let tokens: Record<StaffName, string>;
beforeAll(async () => ({ server, world, tokens } = await startWorld()));
afterAll(() => server?.close());

const admin = (method: string, path: string, body?: unknown) =>
  call(server, method, path, { token: tokens.admin1, body });

/** The nullable and union parts of an admin offer (pricing, referenceRate) are written, not a 500. */
describe('an offer priced from a source, as the back office reads it', () => {
  it('answers its pricing, reference and rate history', async () => {
    const source = await admin('POST', '/admin/rate-sources', {
      name: 'Feed',
      kind: 'json',
      url: 'https://rates.example/r.json',
    });
    expect(source.status, source.text).toBe(201);
    // The poller's last read, as it stores it.
    await server.db
      .updateTable('rate_sources')
      .set({ last_success_at: new Date(), last_quotes: { 'USD/EUR': '0.9200' } })
      .where('id', '=', source.body.id)
      .execute();
    const pricing = { mode: 'source', sourceId: source.body.id, base: 'USD', quote: 'EUR', marginPercent: '-1' };
    const res = await admin('PATCH', `/admin/offers/${world.offers.aUsdEur}`, {
      pricing: { ...pricing, maxJumpPercent: '5' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ rate: 0.9108, pricingState: 'active', referenceRate: 0.92 });
    // The optional terms left out are absent, not null: the response has no nullable unions (docs/rates.md).
    expect(res.body.pricing).toStrictEqual({ ...pricing, marginPercent: -1, maxJumpPercent: 5 });
    const history = await admin('GET', `/admin/offers/${world.offers.aUsdEur}/rates`);
    expect(history.status, history.text).toBe(200);
    expect(history.body.data.at(-1)).toMatchObject({ rate: 0.9108, referenceRate: 0.92 });

    await server.db
      .updateTable('offers')
      .set({ pricing_state: 'suspended', suspended_reason: 'jump' })
      .where('id', '=', world.offers.aUsdEur)
      .execute();
    const resumed = await admin('POST', `/admin/offers/${world.offers.aUsdEur}/resume`);
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.body).toMatchObject({ pricingState: 'active', suspendedReason: null, rate: 0.9108 });
  });
});
