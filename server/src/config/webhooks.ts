import { Type, type Static } from 'typebox';

/**
 * The webhook worker's settings (README, "Configuration"). The maxima keep every duration inside a 32-bit timer and
 * an `int` of milliseconds in SQL: past them, claims failed on every poll and timers fired at once.
 */
export const WebhooksEnv = {
  WEBHOOK_TIMEOUT_MS: Type.Integer({ minimum: 1, maximum: 300_000, default: 10000 }),
  WEBHOOK_RETRY_BASE_MS: Type.Integer({ minimum: 1, maximum: 3_600_000, default: 5000 }),
  WEBHOOK_MAX_RETRIES: Type.Integer({ minimum: 0, maximum: 20, default: 5 }),
  WEBHOOK_DEACTIVATE_AFTER: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10 }),
  // Its default depends on NODE_ENV (config/defaults.ts).
  WEBHOOK_ALLOW_PRIVATE_URLS: Type.Union([Type.Literal('true'), Type.Literal('false')]),
  WEBHOOK_LEASE_MS: Type.Integer({ minimum: 1000, maximum: 3_600_000, default: 30000 }),
  WEBHOOK_POLL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
  WEBHOOK_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 1000, default: 64 }),
  WEBHOOK_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 3650, default: 30 }),
  // `pxs worker` serves /health and /metrics here; unset, it listens on nothing (two workers on one host would clash).
  WORKER_PORT: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
};

type Env = { [K in Exclude<keyof typeof WebhooksEnv, 'WORKER_PORT'>]: Static<(typeof WebhooksEnv)[K]> } & {
  WORKER_PORT?: number;
};

export interface WebhooksConfig {
  webhooks: {
    timeoutMs: number;
    retryBaseMs: number;
    maxRetries: number;
    deactivateAfter: number;
    allowPrivateUrls: boolean;
    leaseMs: number;
    pollMs: number;
    concurrency: number;
    retentionDays: number;
    /** Where `pxs worker` serves /health and /metrics; null: nowhere. */
    workerPort: number | null;
  };
}

export function webhooksConfig(env: Env): WebhooksConfig {
  return {
    webhooks: {
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: env.WEBHOOK_RETRY_BASE_MS,
      maxRetries: env.WEBHOOK_MAX_RETRIES,
      deactivateAfter: env.WEBHOOK_DEACTIVATE_AFTER,
      allowPrivateUrls: env.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
      leaseMs: env.WEBHOOK_LEASE_MS,
      pollMs: env.WEBHOOK_POLL_MS,
      concurrency: env.WEBHOOK_CONCURRENCY,
      retentionDays: env.WEBHOOK_RETENTION_DAYS,
      workerPort: env.WORKER_PORT ?? null,
    },
  };
}
