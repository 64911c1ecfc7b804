import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import type { Log } from '../log.js';
import { readyWithin } from '../redis.js';

/** Tells every instance that cached key or staff data changed. Revocation must reach all of them at once. */
export interface InvalidationBus {
  publish(reason: string): Promise<void>;
  subscribe(handler: (reason: string) => void): void;
  close(): Promise<void>;
}


export function localBus(): InvalidationBus {
  const emitter = new EventEmitter();
  return {
    publish: async (reason) => { emitter.emit('message', reason); },
    subscribe: (handler) => { emitter.on('message', handler); },
    close: async () => { emitter.removeAllListeners(); },
  };
}

/**
 * Redis pub/sub. The publisher also applies the message locally before publishing, so the instance that
 * revoked a key refuses it on its very next request even if Redis is slow or away. While Redis is away,
 * messages between instances are lost: a publish that fails is logged, not the request's failure (the other
 * instances' caches expire within their TTL), and when the subscriber connects again every cache is emptied
 * once, for what it may have missed.
 */
export async function redisBus(publisher: Redis, subscriber: Redis, namespace: string, log: Log = () => undefined): Promise<InvalidationBus> {
  const CHANNEL = `${namespace}:auth-invalidate`;
  const handlers: ((reason: string) => void)[] = [];
  const deliver = (reason: string) => { for (const h of handlers) h(reason); };
  subscriber.on('message', (channel: string, message: string) => { if (channel === CHANNEL) deliver(message); });
  let lost = false;
  subscriber.on('close', () => { lost = true; });
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    deliver('redis-reconnected');
  });
  // Queued until Redis answers (and made again by ioredis after every reconnection); the start-up waits for it
  // unless Redis is away.
  const subscribed = subscriber.subscribe(CHANNEL).catch((err: unknown) => log('warn', 'could not subscribe to invalidations', { err }));
  await Promise.race([subscribed, readyWithin(subscriber, 10_000).then((ok) => (ok ? subscribed : undefined))]);
  return {
    publish: async (reason) => {
      deliver(reason);
      await publisher.publish(CHANNEL, reason).catch((err: unknown) => log('warn', 'invalidation not published; other instances see it when their cache expires', { err: (err as Error).message }));
    },
    subscribe: (handler) => { handlers.push(handler); },
    // The subscriber queues commands while Redis is away: an UNSUBSCRIBE then would wait for its return.
    close: async () => { if (subscriber.status === 'ready') await subscriber.unsubscribe(CHANNEL).catch(() => undefined); },
  };
}
