import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { StaffTokens } from '../../src/auth/staff-jwt.js';
import { loadConfig } from '../../src/config/config.js';
import { measurePair, type Load, type Request } from '../lib/load.js';
import { atLeast, figures, type BenchContext, type Figure, type Scenario } from '../lib/scenario.js';
import { startBaseline, startService, SERVICE_ENV } from '../lib/service.js';

/** Issue 22's targets: catalogue reads at half of baseline (a) or more; a change seen by another instance within 1 s at the p99. */
const RATIO = 0.5;
const STALENESS_P99_MS = 1000;
/** The reads measured once more on bare Fastify (baselines/fastify-catalog.ts): a reference, with no target. */
const FRAMEWORK_READS = ['GET /partner/public/exchanges', 'POST /partner/public/estimate'];

/** The catalogue reads, each to the service (with its key) and, as the same line without a key, to baseline (a). */
function readsOf(ctx: BenchContext): { name: string; request: Request }[] {
  const d = ctx.data;
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });
  const estimate = JSON.stringify({
    exchangeId: d.exchangeId,
    sourceCurrencyId: d.currencies.USD,
    destCurrencyId: d.currencies.EUR,
    amount: 250.5,
  });
  const get = (path: string, key: string) => ({
    name: `GET ${path.replace('/api/v1', '')} (snapshot)`,
    request: { method: 'GET' as const, path, headers: auth(key) },
  });
  return [
    get('/api/v1/partner/public/exchanges', d.keys.public),
    get('/api/v1/partner/public/currencies', d.keys.public),
    get('/api/v1/partner/public/rates', d.keys.public),
    {
      name: 'POST /partner/public/estimate (snapshot)',
      request: {
        method: 'POST',
        path: '/api/v1/partner/public/estimate',
        headers: auth(d.keys.public),
        body: estimate,
      },
    },
    get('/api/v1/partner/offers?limit=20', d.keys.branch),
  ];
}

async function send(url: string, r: Omit<Request, 'method'> & { method: string }, body?: string) {
  const res = await fetch(url + r.path, {
    method: r.method,
    headers: { ...r.headers, ...((body ?? r.body) ? { 'content-type': 'application/json' } : {}) },
    body: body ?? r.body,
  });
  return { status: res.status, text: await res.text() };
}

/**
 * The catalogue served from the snapshot (issue 22): each read against baseline (a), a bare node:http server
 * answering the service's own bodies from memory; then the staleness of an offer change made through the admin
 * API of one instance, as seen by a second instance on the same PostgreSQL.
 */
export const catalog: Scenario = {
  name: 'catalog',
  async run(ctx) {
    const out: Figure[] = [];
    const reads = readsOf(ctx).filter((r) => ctx.selected(r.name));
    if (reads.length > 0) {
      const service = await startService(ctx.databaseUrl);
      const dir = mkdtempSync(join(tmpdir(), 'pxs-bench-'));
      try {
        const bodies: Record<string, string> = {};
        for (const r of reads) {
          const res = await send(service.url, r.request);
          if (res.status !== 200) throw new Error(`${r.name}: ${res.status} ${res.text}`);
          bodies[`${r.request.method} ${r.request.path}`] = res.text;
        }
        writeFileSync(join(dir, 'bodies.json'), JSON.stringify(bodies));
        const a = await startBaseline('node-http-catalog', { BENCH_BODIES: join(dir, 'bodies.json') });
        try {
          // Baselines take the request line and body, without the key.
          const anonymous = (url: string, r: { request: Request }) => ({
            url,
            request: { method: r.request.method, path: r.request.path, body: r.request.body },
          });
          const baselineA = (la: Load) => ({
            subject: 'baseline (a) node:http, same JSON',
            perSecond: la.rps,
            p50Ms: la.p50Ms,
            p99Ms: la.p99Ms,
            peakRssMb: a.peakRssMb(),
            failed: la.failed,
          });
          for (const r of reads) {
            const {
              sides: [la, ls],
              ratio,
              ratios,
            } = await measurePair([anonymous(a.url, r), { url: service.url, request: r.request }], ctx.timing);
            out.push({
              name: r.name,
              subject: 'service (PostgreSQL)',
              ...figures(ls),
              peakRssMb: service.peakRssMb(),
              baseline: baselineA(la),
              ratio,
              sliceRatios: ratios,
              checks: [atLeast(ratio, RATIO, `ratio ≥ ${RATIO.toFixed(2)}`)],
            });
          }
          // The framework's own share, for a GET and the POST: the part of (a) that Fastify alone leaves to the service.
          const framework = reads.filter((r) => FRAMEWORK_READS.some((name) => r.name.startsWith(name)));
          if (framework.length > 0) {
            const f = await startBaseline('fastify-catalog', { BENCH_BODIES: join(dir, 'bodies.json') });
            try {
              for (const r of framework) {
                const {
                  sides: [la, lf],
                  ratio,
                  ratios,
                } = await measurePair([anonymous(a.url, r), anonymous(f.url, r)], ctx.timing);
                out.push({
                  name: r.name.replace('(snapshot)', '(framework only)'),
                  subject: 'bare Fastify 5, same bodies and schemas',
                  ...figures(lf),
                  peakRssMb: f.peakRssMb(),
                  baseline: baselineA(la),
                  ratio,
                  sliceRatios: ratios,
                  checks: [],
                });
              }
            } finally {
              await f.stop();
            }
          }
        } finally {
          await a.stop();
        }
      } finally {
        await service.stop();
        rmSync(dir, { recursive: true, force: true });
      }
    }
    if (ctx.selected('snapshot staleness')) out.push(await staleness(ctx));
    return out;
  },
};

/** Changes one offer's rate N times through instance 1's admin API; after each, polls instance 2 until it serves it. */
async function staleness(ctx: BenchContext): Promise<Figure> {
  const n = ctx.quick ? 20 : 100;
  const [writer, reader] = await Promise.all([startService(ctx.databaseUrl), startService(ctx.databaseUrl)]);
  try {
    const staff = await sql<{ id: number }>`select id from staff_users order by id limit 1`.execute(ctx.db);
    const token = (
      await new StaffTokens(loadConfig({ ...SERVICE_ENV, DATABASE_URL: ctx.databaseUrl }).jwt).sign(staff.rows[0]!.id)
    ).accessToken;
    const offer = await sql<{
      id: number;
    }>`select id from offers where exchange_id = ${ctx.data.exchangeId} and is_active order by id limit 1`.execute(
      ctx.db,
    );
    const offerId = offer.rows[0]!.id;
    const rates: Request = {
      method: 'GET',
      path: `/api/v1/partner/public/rates?exchangeId=${ctx.data.exchangeId}`,
      headers: { authorization: `Bearer ${ctx.data.keys.public}` },
    };
    const served = async () =>
      (JSON.parse((await send(reader.url, rates)).text) as { offerId: number; rate: number }[]).find(
        (r) => r.offerId === offerId,
      )?.rate;
    await served();
    const delays: number[] = [];
    let polls = 0;
    for (let i = 1; i <= n; i++) {
      const rate = 1 + i / 10_000;
      const patch = {
        method: 'PATCH',
        path: `/api/v1/admin/offers/${offerId}`,
        headers: { authorization: `Bearer ${token}` },
      };
      const res = await send(writer.url, patch, JSON.stringify({ rate }));
      if (res.status !== 200) throw new Error(`PATCH offer: ${res.status} ${res.text}`);
      const committed = performance.now();
      for (;;) {
        polls++;
        if ((await served()) === rate) break;
        if (performance.now() - committed > 10_000)
          throw new Error(`instance 2 did not serve rate ${rate} within 10 s`);
      }
      delays.push(performance.now() - committed);
    }
    delays.sort((x, y) => x - y);
    // The reader served from its snapshot, not the database: it rebuilt the branch after (nearly) every change.
    const metrics = await (await fetch(`${reader.url}/metrics`)).text();
    const builds = Number(/^pxs_catalog_snapshot_builds_total (\d+)/m.exec(metrics)?.[1] ?? 0);
    const at = (q: number) => Number(delays[Math.min(delays.length - 1, Math.ceil(q * delays.length) - 1)]!.toFixed(1));
    ctx.progress(
      `snapshot staleness: ${n} changes, ${polls} polls, ${builds} snapshot builds on the reader, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`,
    );
    return {
      name: 'snapshot staleness (admin change → other instance)',
      subject: `2 API instances, ${n} offer changes`,
      perSecond: 0,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      checks: [
        { target: `p99 ≤ ${STALENESS_P99_MS} ms`, met: at(0.99) <= STALENESS_P99_MS },
        { target: 'reader served from its snapshot', met: builds >= n },
      ],
    };
  } finally {
    await Promise.all([writer.stop(), reader.stop()]);
  }
}
