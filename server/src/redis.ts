import { Redis } from 'ioredis';
import type { Log } from './log.js';

/**
 * A Redis connection that fails commands fast instead of queueing them while Redis is away (callers fall back
 * to per-instance limits), and that logs losing and regaining Redis once each instead of on every retry.
 */
export function connectRedis(url: string, name: string, log: Log = () => undefined): Redis {
  const redis = new Redis(url, { connectionName: `pxs:${name}`, maxRetriesPerRequest: 2, enableOfflineQueue: true });
  let healthy = true;
  redis.on('error', (err: Error) => {
    if (!healthy) return;
    healthy = false;
    log('warn', 'Redis unreachable; rate limits fall back to this instance until it returns', { connection: name, err: err.message });
  });
  redis.on('ready', () => {
    if (healthy) return;
    healthy = true;
    log('info', 'Redis reachable again', { connection: name });
  });
  return redis;
}
