import type { Redis } from 'ioredis';
import { KeyVerifier } from './auth/key-verifier.js';
import { LastUsedTracker } from './auth/last-used.js';
import { localBus, redisBus, type InvalidationBus } from './auth/invalidation-bus.js';
import { RateLimiter } from './auth/rate-limiter.js';
import { StaffTokens } from './auth/staff-jwt.js';
import type { Config } from './config/config.js';
import type { Database, DatabaseHandle } from './db/database.js';
import { findKeyByHash, recordLastUsed } from './features/api-keys/service.js';
import { allAvailable } from './features/cash/service.js';
import { CatalogSnapshots } from './features/catalog/service.js';
import { sourceAges } from './features/rate-sources/service.js';
import { countSuspended } from './features/offers/service.js';
import { Metrics } from './http/metrics.js';
import type { Log } from './log.js';
import { connectRedis, readyWithin } from './redis.js';

/**
 * The long-lived services of one process, built once by the runtime and handed to the composition roots (app.ts,
 * the CLI's commands and background work), which give each feature, the worker and authentication the members
 * they use; features never see the whole.
 */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  redis?: Redis;
  keys: KeyVerifier;
  lastUsed: LastUsedTracker;
  limits: { perKey: RateLimiter; perIp: RateLimiter; loginAccount: RateLimiter; loginIp: RateLimiter };
  tokens: StaffTokens;
  metrics: Metrics;
  /** The partner catalogue's per-branch snapshots (docs/scaling.md). */
  catalog: CatalogSnapshots;
  log: Log;
  close(): Promise<void>;
}

/** Failed logins are counted over fixed 15-minute windows. */
const LOGIN_WINDOW_SECONDS = 15 * 60;

export async function createContext(config: Config, database: DatabaseHandle, log?: Log): Promise<AppContext> {
  const logger = log ?? (() => undefined);
  let redis: Redis | undefined;
  let subscriber: Redis | undefined;
  let bus: InvalidationBus;
  if (config.redisUrl) {
    redis = connectRedis(config.redisUrl, 'main', logger);
    subscriber = connectRedis(config.redisUrl, 'subscriber', logger, 'subscriber');
    // The command connection refuses commands until it is ready: the first requests must count in Redis.
    await readyWithin(redis, 10_000);
    bus = await redisBus(redis, subscriber, config.redisKeyPrefix, logger, config.keys.cacheTtlMs);
  } else {
    bus = localBus();
  }
  const db = database.db;
  const lastUsed = new LastUsedTracker(
    (uses) => recordLastUsed(db, uses),
    config.keys.lastUsedFlushMs,
    (err) => logger('warn', 'lastUsedAt flush failed', { err }),
  );
  const metrics = new Metrics();
  metrics.cashPositions = async () =>
    (await allAvailable(db)).map((p) => ({ exchangeId: p.exchange_id, currency: p.code, available: p.available }));
  metrics.rateSourceAges = () => sourceAges(db);
  metrics.suspendedOffers = async () =>
    (await countSuspended(db)).map((r) => ({ reason: r.suspended_reason ?? 'unknown', count: r.n }));
  const catalog = new CatalogSnapshots(db, (channel, handlers) => database.listen(channel, handlers), {
    built: () => metrics.catalogSnapshotBuilds.inc(),
    dropped: (reason) => metrics.catalogSnapshotDrops.inc({ reason }),
    log: logger,
  });
  return {
    config,
    database,
    db,
    redis,
    keys: new KeyVerifier((hash) => findKeyByHash(db, hash), config.keys.cacheTtlMs, bus),
    lastUsed,
    limits: {
      perKey: new RateLimiter('key', config.rateLimit.perMinute, 60, redis, config.redisKeyPrefix),
      perIp: new RateLimiter('ip', config.rateLimit.unauthenticatedPerMinute, 60, redis, config.redisKeyPrefix),
      loginAccount: new RateLimiter(
        'login-account',
        config.rateLimit.loginFailuresPerAccount,
        LOGIN_WINDOW_SECONDS,
        redis,
        config.redisKeyPrefix,
      ),
      loginIp: new RateLimiter(
        'login-ip',
        config.rateLimit.loginFailuresPerIp,
        LOGIN_WINDOW_SECONDS,
        redis,
        config.redisKeyPrefix,
      ),
    },
    tokens: new StaffTokens(config.jwt),
    metrics,
    catalog,
    log: logger,
    async close() {
      await catalog.close();
      await lastUsed.close();
      await bus.close();
      // QUIT goes through the command queue; a connection that is not ready (Redis away) is simply dropped.
      await Promise.all(
        [redis, subscriber].map(
          async (r) => r && (r.status === 'ready' ? r.quit().catch(() => r.disconnect()) : r.disconnect()),
        ),
      );
    },
  };
}
