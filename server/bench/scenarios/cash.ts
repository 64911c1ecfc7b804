import { sql } from 'kysely';
import { removeCreatedOrders } from '../lib/database.js';
import { measurePair, type Request } from '../lib/load.js';
import { atLeast, figures, type Figure, type Scenario } from '../lib/scenario.js';
import { startService } from '../lib/service.js';

/** A tracked currency's order takes its hold in the order's own statement: it keeps this share of an untracked one's. */
const TRACKED_RATIO = 0.8;
const NAME = 'POST /partner/orders at a tracked position';

/**
 * The same order at two exchanges of the bench branch with the same USD→EUR offer, side by side in alternating slices:
 * at the first EUR is not tracked (no cover check, as before cash positions), at the second it is, with a balance
 * that covers every order of the run. The ratio is tracked over untracked.
 */
export const cash: Scenario = {
  name: 'cash',
  async run(ctx) {
    if (!ctx.selected(NAME)) return [];
    const { currencies, exchangeId: untracked, keys } = ctx.data;
    const other = await ctx.db
      .selectFrom('offers')
      .select('exchange_id')
      .where('currency1_id', '=', currencies.USD!)
      .where('currency2_id', '=', currencies.EUR!)
      .where('exchange_id', '<>', untracked)
      .orderBy('exchange_id')
      .executeTakeFirstOrThrow();
    const tracked = other.exchange_id;
    await ctx.db
      .insertInto('cash_positions')
      .values({ exchange_id: tracked, currency_id: currencies.EUR!, balance: '1000000000000000' })
      .onConflict((oc) =>
        oc.columns(['exchange_id', 'currency_id']).doUpdateSet({ balance: '1000000000000000', held: '0' }),
      )
      .execute();
    const order = (exchange: number): Request => ({
      method: 'POST',
      path: '/api/v1/partner/orders',
      headers: { authorization: `Bearer ${keys.branch}` },
      body: JSON.stringify({
        cashbox: { id: exchange },
        currency1: { id: currencies.USD },
        currency2: { id: currencies.EUR },
        operationType: 'offer',
        clientAmount: 250.5,
        comment: 'bench',
      }),
    });
    // The orders of a slice are removed after it, and with them the hold they took.
    const between = async () => {
      await sql`update cash_positions set held = 0`.execute(ctx.db);
      await removeCreatedOrders(ctx.db);
    };
    const service = await startService(ctx.databaseUrl);
    try {
      const {
        sides: [plain, held],
        ratio,
        ratios,
      } = await measurePair(
        [
          { url: service.url, request: order(untracked) },
          { url: service.url, request: order(tracked) },
        ],
        ctx.timing,
        between,
      );
      const figure: Figure = {
        name: NAME,
        subject: 'service (PostgreSQL), EUR tracked',
        ...figures(held),
        peakRssMb: service.peakRssMb(),
        baseline: {
          subject: 'the same order at an exchange that does not track EUR',
          perSecond: plain.rps,
          p50Ms: plain.p50Ms,
          p99Ms: plain.p99Ms,
          peakRssMb: service.peakRssMb(),
          failed: plain.failed,
        },
        ratio,
        sliceRatios: ratios,
        checks: [atLeast(ratio, TRACKED_RATIO, `ratio ≥ ${TRACKED_RATIO.toFixed(2)}`)],
      };
      return [figure];
    } finally {
      await service.stop();
    }
  },
};
