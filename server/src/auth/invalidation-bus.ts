import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Log } from '../log.js';
import { readyWithin } from '../redis.js';
import { withTimeout } from '../time-limit.js';

/** Tells every instance that cached key or staff data changed. Revocation must reach all of them at once. */
export interface InvalidationBus {
  publish(reason: string): Promise<void>;
  subscribe(handler: (reason: string) => void): void;
  close(): Promise<void>;
}

export function localBus(): InvalidationBus {
  const emitter = new EventEmitter();
  return {
    publish: async (reason) => {
      emitter.emit('message', reason);
    },
    subscribe: (handler) => {
      emitter.on('message', handler);
    },
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}

/**
 * Redis pub/sub. The publisher also applies the message locally before publishing, so the instance that
 * revoked a key refuses it on its very next request even if Redis is slow or away. A message Redis did not
 * take (the publisher's connection cut or reconnecting) is logged, not the request's failure, and sent again
 * every quarter second for `retryForMs`, the key caches' lifetime: past it, every entry the message was about
 * has ended on its own. While the subscriber is away, messages to this instance are lost: when it connects
 * again every cache is emptied once, for what it may have missed.
 */
export async function redisBus(
  publisher: Redis,
  subscriber: Redis,
  namespace: string,
  log: Log = () => undefined,
  retryForMs = 5000,
): Promise<InvalidationBus> {
  const CHANNEL = `${namespace}:auth-invalidate`;
  const handlers: ((reason: string) => void)[] = [];
  const deliver = (reason: string) => {
    for (const h of handlers) h(reason);
  };
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === CHANNEL) deliver(message);
  });
  let lost = false;
  subscriber.on('close', () => {
    lost = true;
  });
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    deliver('redis-reconnected');
  });
  // Queued until Redis answers (and made again by ioredis after every reconnection); the start-up waits for it
  // unless Redis is away.
  const subscribed = subscriber
    .subscribe(CHANNEL)
    .catch((err: unknown) => log('warn', 'could not subscribe to invalidations', { err: (err as Error).message }));
  await Promise.race([subscribed, readyWithin(subscriber, 10_000).then((ok) => (ok ? subscribed : undefined))]);

  const send = (reason: string) =>
    publisher.publish(CHANNEL, reason).then(
      () => undefined,
      (err: unknown) => err as Error,
    );
  const retries = new Set<NodeJS.Timeout>();
  let closed = false;
  const retry = (reason: string, until: number) => {
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- cannot reject: send() resolves to its error
    const timer = setTimeout(async () => {
      retries.delete(timer);
      const err = await send(reason);
      if (!err) return log('info', 'invalidation published on a retry', { reason });
      // Closed while it was being sent: close() cleared only the timers still waiting.
      if (closed) return;
      if (Date.now() + RETRY_EVERY_MS <= until) retry(reason, until);
      else
        log('warn', 'invalidation not published; other instances see it when their cache expires', {
          reason,
          err: err.message,
        });
    }, RETRY_EVERY_MS);
    // A pending retry never keeps a stopping process alive.
    timer.unref();
    retries.add(timer);
  };

  return {
    publish: async (reason) => {
      deliver(reason);
      const err = await send(reason);
      if (!err) return;
      log('warn', 'invalidation not published; trying again while the caches it is about live', {
        reason,
        err: err.message,
      });
      retry(reason, Date.now() + retryForMs);
    },
    subscribe: (handler) => {
      handlers.push(handler);
    },
    close: async () => {
      closed = true;
      for (const timer of retries) clearTimeout(timer);
      // The subscriber queues commands while Redis is away: an UNSUBSCRIBE then would wait for its return, and on a
      // connection cut silently, not yet found by its heartbeat, for that. Stopping waits a second at most.
      if (subscriber.status === 'ready')
        await withTimeout(subscriber.unsubscribe(CHANNEL), CLOSE_WAIT_MS, 'UNSUBSCRIBE not answered').catch(
          () => undefined,
        );
    },
  };
}

const RETRY_EVERY_MS = 250;
const CLOSE_WAIT_MS = 1000;
