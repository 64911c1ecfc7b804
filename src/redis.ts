import { Redis } from 'ioredis';

/** A Redis connection that fails requests fast instead of queueing them forever while Redis is away. */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: `pxs:${name}`,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
}
