import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACT } from '../../src/app.js';
import { redisBus } from '../../src/auth/invalidation-bus.js';
import { connectRedis } from '../../src/redis.js';
import { eventually } from '../helpers/eventually.js';
import { tcpProxy } from '../helpers/tcp-proxy.js';

/** Redis is always running where the suite runs (CI starts it), on PGlite passes too. */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the invalidation bus over Redis', () => {
  it('sends again a message Redis refused, so another instance still hears it once the publisher is back', async () => {
    const namespace = `bus-${randomBytes(4).toString('hex')}`;
    // a's command connection is not connected yet: with no offline queue, as after a cut, PUBLISH is refused at once
    // (and the refused command starts the connection).
    const aCommands = new Redis(REDIS_URL, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const aSubscriber = connectRedis(REDIS_URL, 'test-a-subscriber', undefined, 'subscriber');
    const bCommands = connectRedis(REDIS_URL, 'test-b');
    const bSubscriber = connectRedis(REDIS_URL, 'test-b-subscriber', undefined, 'subscriber');
    const a = await redisBus(aCommands, aSubscriber, namespace, undefined, 5000);
    const b = await redisBus(bCommands, bSubscriber, namespace, undefined, 5000);
    const heardByA: string[] = [];
    const heardByB: string[] = [];
    a.subscribe((reason) => heardByA.push(reason));
    b.subscribe((reason) => heardByB.push(reason));
    try {
      expect(aCommands.status).toBe('wait');
      await a.publish('key:1');
      // Applied where it was made at once, whatever Redis did.
      expect(heardByA).toEqual(['key:1']);
      await eventually(async () => heardByB.includes('key:1'));
      expect(heardByB).toEqual(['key:1']);
    } finally {
      await Promise.all([a.close(), b.close()]);
      for (const r of [aCommands, aSubscriber, bCommands, bSubscriber]) r.disconnect();
    }
  });

  it("hears messages when it subscribed during the connection's handshake, as a service starting beside Redis may", async () => {
    const namespace = `bus-${randomBytes(4).toString('hex')}`;
    const subscriber = connectRedis(REDIS_URL, 'test-handshake-subscriber', undefined, 'subscriber');
    let closes = 0;
    subscriber.on('close', () => closes++);
    // Connected, handshake under way: ioredis 5 wrote a SUBSCRIBE at once here, and lost it (src/redis.ts).
    await new Promise((resolve) => subscriber.once('connect', resolve));
    expect(subscriber.status).toBe('connect');
    const others = [
      connectRedis(REDIS_URL, 'test-handshake'),
      connectRedis(REDIS_URL, 'test-handshake-publisher'),
      connectRedis(REDIS_URL, 'test-handshake-publisher-subscriber', undefined, 'subscriber'),
    ] as const;
    const listener = await redisBus(others[0], subscriber, namespace);
    const publisher = await redisBus(others[1], others[2], namespace);
    const heard: string[] = [];
    listener.subscribe((reason) => heard.push(reason));
    try {
      await eventually(async () => subscriber.status === 'ready');
      await publisher.publish('key:2');
      await eventually(async () => heard.includes('key:2'));
      // Heard on the first connection, not after a dropped one.
      expect(closes).toBe(0);
    } finally {
      await Promise.all([listener.close(), publisher.close()]);
      for (const r of [subscriber, ...others]) r.disconnect();
    }
  });

  it('finds connections cut without a reset by their heartbeat: commands are answered again, and the subscriber hears again with its caches emptied', async () => {
    const namespace = `bus-${randomBytes(4).toString('hex')}`;
    const redis = new URL(REDIS_URL);
    const link = await tcpProxy(redis.hostname, Number(redis.port || 6379));
    const through = `redis://127.0.0.1:${link.port}`;
    const logged: string[] = [];
    const log = (_level: string, msg: string) => {
      logged.push(msg);
    };
    const heartbeat = { everyMs: 200, timeoutMs: 1000 };
    const commands = connectRedis(through, 'test-silent', log, 'commands', heartbeat);
    const subscriber = connectRedis(through, 'test-silent-subscriber', log, 'subscriber', heartbeat);
    const others = [
      connectRedis(REDIS_URL, 'test-silent-publisher'),
      connectRedis(REDIS_URL, 'test-silent-publisher-subscriber', undefined, 'subscriber'),
    ] as const;
    const listener = await redisBus(commands, subscriber, namespace);
    const publisher = await redisBus(others[0], others[1], namespace);
    const heard: string[] = [];
    listener.subscribe((reason) => heard.push(reason));
    try {
      await eventually(async () => commands.status === 'ready' && subscriber.status === 'ready');
      link.silence();
      // Both still look ready and no error says otherwise; only an unanswered PING can tell.
      await eventually(async () => heard.includes('redis-reconnected'), 10_000);
      expect(logged).toContain('Redis did not answer a heartbeat; connecting again');
      // On the silent connection this would wait out the command timeout and fail, every time.
      await eventually(async () => commands.status === 'ready', 10_000);
      expect(await commands.ping()).toBe('PONG');
      await publisher.publish('key:3');
      await eventually(async () => heard.includes('key:3'));
    } finally {
      await Promise.all([listener.close(), publisher.close()]);
      for (const r of [commands, subscriber, ...others]) r.disconnect();
      await link.close();
    }
  }, 30_000);

  it('never logs the credentials of a Redis that refuses them', async () => {
    // The process's logger as `pxs serve` makes it (src/cli/lifecycle.ts), writing to memory.
    const lines: string[] = [];
    const logger = pino(
      { level: 'info', redact: REDACT },
      {
        write: (line: string) => {
          lines.push(line);
        },
      },
    );
    const log = (level: 'error' | 'warn' | 'info', msg: string, extra?: object) => logger[level](extra ?? {}, msg);
    const refused = new URL(REDIS_URL);
    refused.username = 'pxs-nobody';
    refused.password = 'Sup3rSecretPw';
    const commands = connectRedis(refused.href, 'test-refused', log);
    const subscriber = connectRedis(refused.href, 'test-refused-subscriber', log, 'subscriber');
    const bus = await redisBus(commands, subscriber, `bus-${randomBytes(4).toString('hex')}`, log);
    try {
      await eventually(async () => lines.some((l) => l.includes('could not subscribe to invalidations')), 15_000);
      expect(lines.join('')).not.toContain('Sup3rSecretPw');
    } finally {
      await bus.close();
      for (const r of [commands, subscriber]) r.disconnect();
    }
  }, 30_000);
});
