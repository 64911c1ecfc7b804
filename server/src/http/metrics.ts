import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const HTTP_DURATION = 'pxs_http_request_duration_seconds';

/** One registry per app instance, so tests and benchmarks can run several apps in one process. */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: HTTP_DURATION,
    help: 'HTTP request latency by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  });
  /**
   * Filled from the histogram's counts when scraped: updating a second metric on every request cost as much as the
   * histogram's own update.
   */
  readonly httpRequests: Counter<'method' | 'route' | 'status'> = new Counter({
    name: 'pxs_http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
    collect: async () => {
      const { values } = await this.httpDuration.get();
      this.httpRequests.reset();
      for (const v of values) {
        if (v.metricName === `${HTTP_DURATION}_count`)
          this.httpRequests.inc(v.labels as Record<'method' | 'route' | 'status', string>, v.value);
      }
    },
  });
  readonly webhookDeliveries = new Counter({
    name: 'pxs_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (success, retry, failed, abandoned)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookDeliveriesPruned = new Counter({
    name: 'pxs_webhook_deliveries_pruned_total',
    help: 'Finished webhook deliveries deleted, with their attempts, after WEBHOOK_RETENTION_DAYS',
    registers: [this.registry],
  });
  readonly webhookAttemptDuration = new Histogram({
    name: 'pxs_webhook_attempt_duration_seconds',
    help: 'Duration of one webhook delivery attempt',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly webhookLag = new Histogram({
    name: 'pxs_webhook_delivery_lag_seconds',
    help: 'Delay between a delivery attempt being due and being sent',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  readonly webhookQueueDepth = new Gauge({
    name: 'pxs_webhook_queue_depth',
    help: 'Pending webhook deliveries (sampled by the worker)',
    registers: [this.registry],
  });
  readonly ordersExpired = new Counter({
    name: 'pxs_orders_expired_total',
    help: 'Orders the system cancelled because their payment window ran out unpaid',
    registers: [this.registry],
  });

  readonly catalogSnapshotBuilds = new Counter({
    name: 'pxs_catalog_snapshot_builds_total',
    help: 'Per-branch catalogue snapshots built (each is three queries)',
    registers: [this.registry],
  });
  readonly catalogSnapshotDrops = new Counter({
    name: 'pxs_catalog_snapshot_invalidations_total',
    help: 'Catalogue snapshots dropped: a branch changed (change), every branch (all), or notifications were lost (untrusted)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  /** Set by the operations routes: what /ready checks, asked again at each scrape. */
  dependencies: (() => Promise<Record<string, boolean>>) | undefined;
  /**
   * 1 when the dependency answers, 0 when not, at the moment of the scrape: what /ready says in its body, for an
   * alert on Prometheus (`pxs_dependency_up{dependency="redis"} == 0` is /ready's `degraded`). Redis appears
   * only where it is configured.
   */
  readonly dependencyUp = new Gauge({
    name: 'pxs_dependency_up',
    help: 'Whether the database and Redis answer (1) or not (0), checked at each scrape as /ready checks them',
    labelNames: ['dependency'] as const,
    registers: [this.registry],
    collect: async () => {
      if (!this.dependencies) return;
      for (const [dependency, up] of Object.entries(await this.dependencies()))
        this.dependencyUp.set({ dependency }, up ? 1 : 0);
    },
  });

  /** Set where the database is known (context.ts): every tracked position's available cash, read at each scrape. */
  cashPositions: (() => Promise<{ exchangeId: number; currency: string; available: string }[]>) | undefined;
  /**
   * What each exchange can still pay out of each currency it tracks (docs/cash.md), read at the scrape: an alert on
   * it (`pxs_cash_available < …`) warns before orders are refused with insufficientReserve.
   */
  readonly cashAvailable = new Gauge({
    name: 'pxs_cash_available',
    help: 'Available cash (balance minus what open orders hold) per exchange and tracked currency, at each scrape',
    labelNames: ['exchange_id', 'currency'] as const,
    registers: [this.registry],
    collect: async () => {
      if (!this.cashPositions) return;
      let positions: Awaited<ReturnType<typeof this.cashPositions>>;
      try {
        positions = await this.cashPositions();
      } catch {
        // The database is away: /metrics must still answer (pxs_dependency_up says why), without stale cash figures.
        this.cashAvailable.reset();
        return;
      }
      this.cashAvailable.reset();
      // A gauge is a float: fine for a chart and an alert, never used for money.
      for (const p of positions)
        this.cashAvailable.set({ exchange_id: String(p.exchangeId), currency: p.currency }, Number(p.available));
    },
  });

  /** Failed reads of a market rate source (docs/rates.md): the fetch, or a document its kind cannot read. */
  readonly rateSourceErrors = new Counter({
    name: 'pxs_rate_source_errors_total',
    help: 'Failed reads of a market rate source (network, HTTP status, size, timeout, or an unreadable document)',
    labelNames: ['source_id'] as const,
    registers: [this.registry],
  });

  /** Set where the database is known (context.ts): each rate source's seconds since its last successful read. */
  rateSourceAges: (() => Promise<{ sourceId: number; ageSeconds: number | null }[]>) | undefined;
  /**
   * How old each source's reference is, read at the scrape: an alert on it (`pxs_rate_source_last_success_seconds >
   * …`) warns before offers priced from the source are suspended as stale. A source never read is left out.
   */
  readonly rateSourceAge = new Gauge({
    name: 'pxs_rate_source_last_success_seconds',
    help: 'Seconds since the last successful read of each market rate source, at each scrape',
    labelNames: ['source_id'] as const,
    registers: [this.registry],
    collect: async () => {
      if (!this.rateSourceAges) return;
      let ages: Awaited<ReturnType<typeof this.rateSourceAges>>;
      try {
        ages = await this.rateSourceAges();
      } catch {
        // The database is away: /metrics must still answer (pxs_dependency_up says why), without stale ages.
        this.rateSourceAge.reset();
        return;
      }
      this.rateSourceAge.reset();
      for (const a of ages)
        if (a.ageSeconds !== null) this.rateSourceAge.set({ source_id: String(a.sourceId) }, a.ageSeconds);
      },
    });

  /** Set where the database is known (context.ts): suspended offers by reason, read at each scrape. */
  suspendedOffers: (() => Promise<{ reason: string; count: number }[]>) | undefined;
  /**
   * Offers a safety stop took away from partners (docs/rates.md, "Safety stops"): `stale` says a rate source stopped
   * answering, `jump` that a reference moved too far; both wait for a sane reference or for staff.
   */
  readonly offersSuspended = new Gauge({
    name: 'pxs_offers_suspended',
    help: 'Offers priced from a rate source that are suspended, by reason (stale, jump), at each scrape',
    labelNames: ['reason'] as const,
    registers: [this.registry],
    collect: async () => {
      if (!this.suspendedOffers) return;
      let counts: Awaited<ReturnType<typeof this.suspendedOffers>>;
      try {
        counts = await this.suspendedOffers();
      } catch {
        // The database is away: /metrics must still answer (pxs_dependency_up says why), without stale counts.
        this.offersSuspended.reset();
        return;
      }
      // Both reasons are always present, so an alert on one sees 0 rather than no series.
      this.offersSuspended.reset();
      this.offersSuspended.set({ reason: 'stale' }, 0);
      this.offersSuspended.set({ reason: 'jump' }, 0);
      for (const c of counts) this.offersSuspended.set({ reason: c.reason }, c.count);
    },
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'pxs_' });
  }
}
