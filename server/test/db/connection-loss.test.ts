import { createServer, type Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { databaseUnavailable } from '../../src/db/errors.js';
import { OutageLog } from '../../src/db/outage-log.js';
import { listenForDeliveries } from '../../src/features/delivery/listen.js';
import { OUTBOX_CHANNEL } from '../../src/features/delivery/outbox.js';
import { OrderFeed } from '../../src/features/order-feed/feed.js';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { tcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

/*
 * A connection lost at any moment (idle, checked out mid-query, inside a transaction, while LISTENing) fails the
 * statement using it with an error the HTTP layer answers with a 503, and never ends the process: an 'error'
 * event without a listener would surface here as an uncaught exception and fail the file.
 */
describe.skipIf(!usingPostgres)('a lost PostgreSQL connection (PostgreSQL pass only: PGlite has none)', () => {
  let database: TestDatabase;
  let link: TcpProxy;
  let handle: DatabaseHandle;
  const idleErrors: Error[] = [];

  beforeAll(async () => {
    database = await openTestDatabase();
    const url = new URL(database.url!);
    link = await tcpProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${link.port}`;
    handle = await openDatabase({
      databaseUrl: url.toString(),
      dataDir: 'memory://',
      poolSize: 3,
      onIdleError: (err) => idleErrors.push(err),
    });
    await handle.warm();
  });
  afterAll(async () => {
    await handle?.close().catch(() => undefined);
    await link?.close();
    await database?.close();
  });

  const works = async () =>
    expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);

  it('fails a statement in flight and a transaction cleanly, then serves on new connections', async () => {
    const midQuery = sql`select pg_sleep(5)`.execute(handle.db);
    const inTransaction = handle.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await sql`select pg_sleep(5)`.execute(trx);
    });
    await new Promise((r) => setTimeout(r, 300));
    await link.cut();
    for (const outcome of await Promise.allSettled([midQuery, inTransaction])) {
      expect(outcome.status).toBe('rejected');
      expect(databaseUnavailable((outcome as PromiseRejectedResult).reason)).toBe(true);
    }
    const during = await sql`select 1`.execute(handle.db).then(
      () => null,
      (err: unknown) => err,
    );
    expect(databaseUnavailable(during)).toBe(true);
    await link.restore();
    await works();
  });

  it('replaces idle connections the network dropped', async () => {
    await works();
    await link.cut();
    await new Promise((r) => setTimeout(r, 200));
    await link.restore();
    expect(idleErrors.length).toBeGreaterThan(0);
    await works();
  });

  it('fails a statement on a connection cut without a reset once its time is up, and replaces that connection', async () => {
    // A relay and a pool of their own: silencing this file's relay would leave its pool's connections hanging too.
    const url = new URL(database.url!);
    const quiet = await tcpProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${quiet.port}`;
    const own = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolSize: 1 });
    try {
      await own.warm();
      own.limitQueries(1000);
      const one = async () => (await sql<{ one: number }>`select 1 as one`.execute(own.db)).rows;
      expect(await one()).toEqual([{ one: 1 }]);
      quiet.silence();
      // No error comes from a silent connection: without the limit this statement would wait for TCP to give up.
      const lost = await own.db
        .transaction()
        .execute(async (trx) => sql`select 1`.execute(trx))
        .then(
          () => null,
          (err: unknown) => err,
        );
      expect(databaseUnavailable(lost)).toBe(true);
      // The pool's one connection was dropped: the next statement runs on a new one (the relay takes new connections).
      expect(await one()).toEqual([{ one: 1 }]);
    } finally {
      await quiet.close();
      await own.close();
    }
  }, 20_000);

  it('gives up a connection attempt that gets no answer, as behind a cut route, and answers unavailable', async () => {
    // Accepts and never answers: a new connection's start-up waits as it would for a SYN's retries.
    const held = new Set<Socket>();
    const silent = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = new URL(database.url!);
    url.host = `127.0.0.1:${(silent.address() as { port: number }).port}`;
    const own = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory://', poolSize: 1 });
    try {
      const lost = await own.ping().then(
        () => null,
        (err: unknown) => err,
      );
      expect(databaseUnavailable(lost)).toBe(true);
      expect(held.size).toBe(1);
    } finally {
      for (const socket of held) socket.destroy();
      silent.close();
      await own.close();
    }
  }, 20_000);

  it('keeps LISTENing across a cut', async () => {
    const logged: string[] = [];
    let notified = 0;
    const listener = listenForDeliveries(
      database.url!.replace(/:\d+\//, `:${link.port}/`),
      () => {
        notified += 1;
      },
      (_l, msg) => {
        logged.push(msg);
      },
    );
    try {
      await new Promise((r) => setTimeout(r, 500));
      await link.cut();
      await new Promise((r) => setTimeout(r, 300));
      await link.restore();
      // Waited for, not timed: the reconnection comes after the listener's retry delay, later on a loaded machine.
      await eventually(async () => logged.some((m) => m.includes('listening again')));
      expect(logged.some((m) => m.includes('not listening'))).toBe(true);
      await sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(database.db);
      await eventually(async () => notified > 0, 5000);
    } finally {
      await listener.close();
    }
  }, 20_000);

  it('finds a LISTEN connection cut without a reset by its heartbeat, and hears NOTIFY again', async () => {
    // A relay of its own: silencing this file's relay would leave the pool's idle connections hanging too.
    const url = new URL(database.url!);
    const quiet = await tcpProxy(url.hostname, Number(url.port || 5432));
    url.host = `127.0.0.1:${quiet.port}`;
    const logged: string[] = [];
    let notified = 0;
    const listener = listenForDeliveries(
      url.toString(),
      () => {
        notified += 1;
      },
      (_l, msg) => {
        logged.push(msg);
      },
      { heartbeatMs: 250, timeoutMs: 2000 },
    );
    try {
      await eventually(async () => notified > 0, 5000); // listening: the worker is told to look once
      quiet.silence();
      // Nothing comes through the silent connection and no error says so; the unanswered heartbeat does.
      await eventually(async () => logged.some((m) => m.includes('not listening')), 5000);
      await eventually(async () => logged.some((m) => m.includes('listening again')), 5000);
      const before = notified;
      await sql`select pg_notify(${OUTBOX_CHANNEL}, '')`.execute(database.db);
      await eventually(async () => notified > before, 5000);
    } finally {
      await quiet.close();
      await listener.close();
    }
  }, 20_000);

  it('the order feed, polling through a cut, logs the outage once and its end once', async () => {
    const lines: [string, string][] = [];
    const feed = new OrderFeed(handle.db, {
      pollMs: 50,
      gapWaitMs: 1000,
      failures: new OutageLog((level, msg) => {
        lines.push([level, msg]);
      }, 'the order feed goes on'),
    });
    const stop = await feed.subscribe(() => undefined);
    try {
      await link.cut();
      // Many polls fail meanwhile: one every 50 ms.
      await new Promise((r) => setTimeout(r, 1000));
      await link.restore();
      await eventually(async () => lines.some(([level]) => level === 'info'));
      expect(lines).toEqual([
        ['warn', 'order feed poll failed: the database is unavailable; trying again until it is back'],
        ['info', 'the database is available again; the order feed goes on'],
      ]);
    } finally {
      stop();
    }
  }, 20_000);
});
