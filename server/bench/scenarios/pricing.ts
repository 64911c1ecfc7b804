import { sql } from 'kysely';
import { StaffTokens } from '../../src/auth/staff-jwt.js';
import { loadConfig } from '../../src/config/config.js';
import { applySourceQuotes } from '../../src/features/offers/service.js';
import { load, type Load, type Side } from '../lib/load.js';
import { atLeast, below, figures, type BenchContext, type Figure, type Scenario } from '../lib/scenario.js';
import { startService, SERVICE_ENV } from '../lib/service.js';

const NAME = 'applySourceQuotes: one read re-prices 1,000 offers';
const READS = 'GET /partner/public/rates while a source re-prices 1,000 offers each second';
/** Partners' catalogue reads while re-pricing runs keep at least this share of their throughput without it. */
const READS_TARGET = 0.8;
const OFFERS = 1000;
/** One re-pricing of every offer of a source must cost at most this share of changing them one PATCH at a time. */
const TARGET_RATIO = 0.1;

/**
 * One read of a rate source re-pricing 1,000 offers (one transaction: one read, one update, one history insert and
 * an offer.updated each) against the same 1,000 rate changes made as 1,000 `PATCH /admin/offers/{id}` over HTTP,
 * one after the other, as staff (or a script) would without a source. Every rate changes on both sides. The ratio
 * is the re-pricing's time over the PATCHes'.
 */
export const pricing: Scenario = {
  name: 'pricing',
  async run(ctx) {
    if (!ctx.selected(NAME) && !ctx.selected(READS)) return [];
    const { sourceId, offerIds } = await seedPricedOffers(ctx);
    const out: Figure[] = [];
    if (ctx.selected(READS)) out.push(await readsWhileRepricing(ctx, sourceId));
    if (!ctx.selected(NAME)) {
      await sql`delete from offers where id = any(${offerIds}::int[])`.execute(ctx.db);
      return out;
    }
    const rounds = ctx.quick ? 1 : 3;
    const applyMs: number[] = [];
    for (let i = 1; i <= rounds; i++) {
      const started = performance.now();
      await applySourceQuotes(ctx.db, sourceId, { 'AAA/BBB': (91 + i / 100).toFixed(2) }, new Date());
      applyMs.push(performance.now() - started);
    }
    const changed = await sql<{
      n: number;
    }>`select count(*)::int as n from offer_rates r join offers o on o.id = r.offer_id
      where o.rate_source_id = ${sourceId}`.execute(ctx.db);
    if (changed.rows[0]!.n < OFFERS * rounds) throw new Error(`re-pricing changed ${changed.rows[0]!.n} rates`);

    // The same offers, fixed again, changed by HTTP.
    await sql`update offers set pricing_mode = 'fixed', rate_source_id = null, pricing_base = null, pricing_quote = null,
      margin_percent = null, reference_rate = null, reference_at = null where rate_source_id = ${sourceId}`.execute(
      ctx.db,
    );
    const service = await startService(ctx.databaseUrl);
    let patchMs: number;
    try {
      const staff = await sql<{
        id: number;
      }>`select id from staff_users where role = 'superadmin' order by id limit 1`.execute(ctx.db);
      const token = (
        await new StaffTokens(loadConfig({ ...SERVICE_ENV, DATABASE_URL: ctx.databaseUrl }).jwt).sign(staff.rows[0]!.id)
      ).accessToken;
      const started = performance.now();
      for (const [i, id] of offerIds.entries()) {
        const res = await fetch(`${service.url}/api/v1/admin/offers/${id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ rate: (95 + i / 10_000).toFixed(4) }),
        });
        if (res.status !== 200) throw new Error(`PATCH offer: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
      }
      patchMs = performance.now() - started;
    } finally {
      await service.stop();
    }
    await sql`delete from offers where id = any(${offerIds}::int[])`.execute(ctx.db);

    const apply = median(applyMs);
    const ratio = apply / patchMs;
    const figure: Figure = {
      name: NAME,
      subject: `${OFFERS} offers in one applySourceQuotes (PostgreSQL), median of ${rounds}`,
      perSecond: Math.round((OFFERS / apply) * 1000),
      p50Ms: Math.round(apply),
      // The slowest of the rounds: the figure has no percentiles of its own.
      p99Ms: Math.round(Math.max(...applyMs)),
      baseline: {
        subject: `${OFFERS} PATCH /admin/offers/{id} over HTTP, one after the other`,
        perSecond: Math.round((OFFERS / patchMs) * 1000),
        p50Ms: Math.round(patchMs),
        p99Ms: Math.round(patchMs),
        peakRssMb: 0,
        failed: 0,
      },
      ratio,
      checks: [below(ratio, TARGET_RATIO, `time ratio < ${TARGET_RATIO}`)],
    };
    return [...out, figure];
  },
};

/**
 * Partners' catalogue reads with and without a source re-pricing the 1,000 offers once a second (a 1 s interval, the
 * shortest a source takes), in alternating slices as measurePair does: each re-pricing rewrites 1,000 rates, queues
 * their offer.updated and makes the service rebuild the branch's catalogue snapshot, while 32 connections read it.
 */
async function readsWhileRepricing(ctx: BenchContext, sourceId: number): Promise<Figure> {
  const service = await startService(ctx.databaseUrl);
  try {
    const side: Side = {
      url: service.url,
      request: {
        method: 'GET',
        path: '/api/v1/partner/public/rates',
        headers: { authorization: `Bearer ${ctx.data.keys.public}` },
      },
    };
    const { warmup, slice, slices, connections } = ctx.timing;
    let round = 0;
    const reprice = async () =>
      applySourceQuotes(ctx.db, sourceId, { 'AAA/BBB': (91 + (++round % 50) / 100).toFixed(2) }, new Date());
    /** Re-prices once a second until stopped; the load runs meanwhile. */
    const repricing = () => {
      let stop = false;
      const done = (async () => {
        while (!stop) {
          const started = performance.now();
          await reprice();
          const left = 1000 - (performance.now() - started);
          if (left > 0 && !stop) await new Promise((r) => setTimeout(r, left));
        }
      })();
      return async () => {
        stop = true;
        await done;
      };
    };
    await load(side, warmup, connections);
    const quiet: Load[] = [];
    const busy: Load[] = [];
    for (let i = 0; i < slices; i++) {
      quiet.push(await load(side, slice, connections));
      const stop = repricing();
      busy.push(await load(side, slice, connections));
      await stop();
    }
    const ratios = busy.map((b, i) => b.rps / quiet[i]!.rps).sort((a, b) => a - b);
    const ratio = ratios[Math.floor(ratios.length / 2)]!;
    const mean = (ls: Load[]) => ({
      rps: Math.round(ls.reduce((a, l) => a + l.rps, 0) / ls.length),
      p50Ms: Math.round(ls.reduce((a, l) => a + l.p50Ms, 0) / ls.length),
      p99Ms: Math.max(...ls.map((l) => l.p99Ms)),
      failed: ls.reduce((a, l) => a + l.failed, 0),
    });
    const q = mean(quiet);
    return {
      name: READS,
      subject: `the public rates, ${round} re-pricings of 1,000 offers during the busy slices`,
      ...figures(mean(busy)),
      baseline: {
        subject: 'the same reads, no re-pricing',
        perSecond: q.rps,
        p50Ms: q.p50Ms,
        p99Ms: q.p99Ms,
        peakRssMb: 0,
        failed: q.failed,
      },
      ratio,
      sliceRatios: ratios.map((r) => Number(r.toFixed(3))),
      checks: [atLeast(ratio, READS_TARGET, `reads keep ≥ ${READS_TARGET} of their throughput`)],
    };
  } finally {
    await service.stop();
  }
}

/** A source of the bench branch and 1,000 offers priced from it, on 10 new exchanges of 100 currency pairs each. */
async function seedPricedOffers(ctx: BenchContext) {
  const { branchId, currencies } = ctx.data;
  const source = await sql<{ id: number }>`
    insert into rate_sources (branch_id, name, kind, url, last_quotes, last_success_at)
    values (${branchId}, ${`bench ${Date.now()}`}, 'json', 'https://rates.example/bench', ${JSON.stringify({ 'AAA/BBB': '91' })}::jsonb, now())
    returning id`.execute(ctx.db);
  const sourceId = source.rows[0]!.id;
  const ids = Object.values(currencies);
  const pairs = ids.flatMap((a) => ids.filter((b) => b !== a).map((b) => [a, b] as const)).slice(0, OFFERS / 10);
  if (pairs.length < OFFERS / 10) throw new Error('the bench branch has too few currencies for 100 pairs');
  const exchanges = await sql<{ id: number }>`
    insert into exchanges (branch_id, name, address, city, phone_number, chat_url, timezone, updated_at)
    select ${branchId}, 'Priced ' || g, g || ' Rate Street', 'Benchville', '+15550100' || g, 'https://chat.example/p' || g, 'UTC', now()
    from generate_series(1, 10) g returning id`.execute(ctx.db);
  const offers = await sql<{ id: number }>`
    insert into offers (exchange_id, currency1_id, currency2_id, rate, min_amount, max_amount, updated_at,
      pricing_mode, rate_source_id, pricing_base, pricing_quote, margin_percent, rate_decimals, reference_rate, reference_at)
    select e.id, p.c1, p.c2, 90, 1, 1000, now(), 'source', ${sourceId}, 'AAA', 'BBB', -(p.n % 50) / 10.0, 4, 91, now()
    from unnest(${exchanges.rows.map((e) => e.id)}::int[]) as e(id)
    cross join unnest(${pairs.map((p) => p[0])}::int[], ${pairs.map((p) => p[1])}::int[]) with ordinality as p(c1, c2, n)
    returning id`.execute(ctx.db);
  return { sourceId, offerIds: offers.rows.map((o) => o.id) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
