import { Redis } from 'ioredis';
import type { Log } from './log.js';
import { withTimeout } from './time-limit.js';

/**
 * How long a command may wait for Redis's answer on a connection that looks alive but does not answer (a
 * half-open TCP connection after a network cut): it bounds what a request can lose to a silent Redis before it
 * falls back to per-instance limits. A closed or refused connection is known at once and costs nothing. Not
 * shorter: on a saturated machine a healthy Redis's answer can wait hundreds of milliseconds for the event
 * loop, and each timeout counts a request outside the shared limit.
 */
const COMMAND_TIMEOUT_MS = 1000;

export type RedisRole = 'commands' | 'subscriber';

/**
 * A cut that sends no reset (a dropped route, a failover behind a virtual address) leaves a connection looking
 * ready until TCP gives up, about 15 minutes of retransmissions: every command on it would wait out its timeout,
 * and a subscriber would hear nothing. Each connection asks PING `everyMs` after the last answer; no answer
 * within `timeoutMs` (or the command connection's own timeout) and it is dropped and made again, which a
 * subscriber follows by subscribing again and its bus by emptying the caches (auth/invalidation-bus.ts).
 */
export interface RedisHeartbeat {
  everyMs: number;
  timeoutMs: number;
}
const HEARTBEAT: RedisHeartbeat = { everyMs: 1000, timeoutMs: 3000 };

/**
 * A Redis connection that logs losing and regaining Redis once each instead of on every retry.
 *
 * The command connection fails fast while Redis is away: no offline queue, so a command sent while ioredis is
 * reconnecting is refused at once (callers fall back to per-instance limits) instead of waiting for the
 * connection, which made every request of an outage slower than the last. The subscriber keeps its queue: its
 * only commands are (re)subscriptions, and ioredis subscribes again by itself after a reconnection.
 *
 * The subscriber has no ready check: it only waits for a Redis still loading its data, which SUBSCRIBE does not
 * need. Under ioredis 5 a SUBSCRIBE issued during the handshake went out before the check's INFO, which a
 * connection in subscriber mode may not send: the check failed, the connection was dropped and came back
 * subscribed to nothing, deaf to every invalidation (ioredis #2037). ioredis 6 orders its handshake; without the
 * check there is nothing left to order.
 */
export function connectRedis(
  url: string,
  name: string,
  log: Log = () => undefined,
  role: RedisRole = 'commands',
  heartbeat: RedisHeartbeat = HEARTBEAT,
): Redis {
  const redis = new Redis(
    url,
    role === 'commands'
      ? {
          connectionName: `pxs:${name}`,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 1,
          commandTimeout: COMMAND_TIMEOUT_MS,
        }
      : {
          connectionName: `pxs:${name}`,
          enableOfflineQueue: true,
          maxRetriesPerRequest: null,
          enableReadyCheck: false,
        },
  );
  let healthy = true;
  redis.on('error', (err: Error) => {
    if (!healthy) return;
    healthy = false;
    log('warn', 'Redis unreachable; rate limits fall back to this instance until it returns', {
      connection: name,
      err: err.message,
    });
  });
  redis.on('ready', () => {
    if (healthy) return;
    healthy = true;
    log('info', 'Redis reachable again', { connection: name });
  });
  watchForSilence(redis, heartbeat, () => {
    if (healthy) log('warn', 'Redis did not answer a heartbeat; connecting again', { connection: name });
    healthy = false;
  });
  return redis;
}

/** The heartbeat: from each 'ready' until the connection ends, the next PING only once the last is answered. */
function watchForSilence(redis: Redis, h: RedisHeartbeat, silent: () => void): void {
  let timer: NodeJS.Timeout | undefined;
  const beat = () => {
    clearTimeout(timer);
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- cannot reject: the PING's failure is caught as `false`
    timer = setTimeout(async () => {
      if (redis.status !== 'ready') return;
      const answered = await withTimeout(redis.ping(), h.timeoutMs, 'PING not answered').then(
        () => true,
        () => false,
      );
      // Closed or reconnecting meanwhile: its next 'ready' starts the heartbeat again.
      if (redis.status !== 'ready') return;
      if (answered) return beat();
      silent();
      // Ends the stream, destroyed if it does not close within ioredis's disconnectTimeout, and reconnects.
      redis.disconnect(true);
    }, h.everyMs);
    // A heartbeat never keeps a stopping process alive.
    timer.unref();
  };
  redis.on('ready', beat);
  redis.on('end', () => clearTimeout(timer));
}

/**
 * Resolves true once the connection is ready, false at its first error or after `ms`: start-up waits for a
 * Redis that is slow to answer, not for one that is away (the service then starts on per-instance limits).
 */
export function readyWithin(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      resolve(ok);
    };
    const onReady = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done(false), ms);
    redis.on('ready', onReady);
    redis.on('error', onError);
  });
}
