import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';

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
 * revoked a key refuses it on its very next request even if Redis is slow.
 */
export async function redisBus(publisher: Redis, subscriber: Redis, namespace: string): Promise<InvalidationBus> {
  const CHANNEL = `${namespace}:auth-invalidate`;
  const handlers: ((reason: string) => void)[] = [];
  const deliver = (reason: string) => { for (const h of handlers) h(reason); };
  subscriber.on('message', (channel: string, message: string) => { if (channel === CHANNEL) deliver(message); });
  await subscriber.subscribe(CHANNEL);
  return {
    publish: async (reason) => {
      deliver(reason);
      await publisher.publish(CHANNEL, reason);
    },
    subscribe: (handler) => { handlers.push(handler); },
    close: async () => { await subscriber.unsubscribe(CHANNEL).catch(() => undefined); },
  };
}
