import type pg from 'pg';
import { withTimeout } from '../time-limit.js';

/** What a LISTEN tells its owner: each notification's payload, and when it is (again) listening or has lost it. */
export interface ListenHandlers {
  notify(payload: string): void;
  /** Listening from now on; notifications sent while it was not were lost. */
  listening(): void;
  /** Not listening (the connection failed or was closed by the server); it reconnects by itself. */
  lost(err?: Error): void;
}

export interface Listening {
  close(): Promise<void>;
}

/** Waits between attempts to listen again, the last one repeated. */
const RETRY_MS = [50, 100, 250, 500, 1000];

/**
 * A listening connection only receives, so a silent network cut (no reset: a dropped route, a failover, a
 * conntrack entry gone) would leave it waiting for notifications that never come, and its owner trusting what it
 * holds, until TCP keepalive gives up hours later. It asks PostgreSQL something every `heartbeatMs` instead; no
 * answer within `timeoutMs` counts as lost, and a connection not made within it is tried again. Generous, so that
 * a saturated machine's slow answer is not a cut.
 */
export interface ListenOptions {
  heartbeatMs: number;
  timeoutMs: number;
}
const HEARTBEAT: ListenOptions = { heartbeatMs: 1000, timeoutMs: 5000 };

/**
 * LISTEN on a connection of its own (a pooled one is shared and may be closed): a `pg` Client with an 'error'
 * listener, so that a lost connection never ends the process, which reconnects and listens again by itself.
 */
export function listenPostgres(
  Client: typeof pg.Client,
  url: string,
  channel: string,
  h: ListenHandlers,
  options: ListenOptions = HEARTBEAT,
): Listening {
  let closed = false;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  let current: pg.Client | undefined;
  const connect = async () => {
    timer = undefined;
    // Named for its channel, so that pg_stat_activity tells the catalogue's listener from the webhook worker's.
    const client = new Client({
      connectionString: url,
      application_name: `pxs-listen:${channel}`,
      keepAlive: true,
      connectionTimeoutMillis: options.timeoutMs,
      query_timeout: options.timeoutMs,
    });
    current = client;
    let failed = false;
    let heartbeat: NodeJS.Timeout | undefined;
    const fail = (err?: Error) => {
      if (failed) return;
      failed = true;
      clearTimeout(heartbeat);
      client.end().catch(() => undefined);
      if (closed) return;
      h.lost(err);
      timer = setTimeout(() => void connect(), RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
      timer.unref();
    };
    client.on('error', fail);
    client.on('end', () => fail());
    client.on('notification', (m) => {
      if (!failed) h.notify(m.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (err) {
      fail(err as Error);
      return;
    }
    if (closed || failed) return;
    attempt = 0;
    // The next question only once the last is answered, so none queue up behind a slow one.
    const beat = () => {
      if (failed) return;
      heartbeat = setTimeout(() => {
        client
          .query('select 1')
          .then(beat, (err: Error) => fail(new Error(`no heartbeat from PostgreSQL: ${err.message}`)));
      }, options.heartbeatMs);
      heartbeat.unref();
    };
    beat();
    h.listening();
  };
  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      // `end` waits for the server to close, which a silently cut connection never does: stop waiting at the timeout.
      if (current)
        await withTimeout(current.end(), options.timeoutMs, 'LISTEN connection not closed').catch(() => undefined);
    },
  };
}

/** PGlite runs in this process: its LISTEN cannot be lost, and every writer is this process. */
export function listenPglite(
  client: { listen(channel: string, cb: (payload: string) => void): Promise<() => Promise<void>> },
  channel: string,
  h: ListenHandlers,
): Listening {
  let closed = false;
  const unlisten = client
    .listen(channel, (payload) => {
      if (!closed) h.notify(payload);
    })
    .then(
      (off) => {
        if (!closed) h.listening();
        return off;
      },
      (err: Error) => {
        h.lost(err);
        return undefined;
      },
    );
  return {
    async close() {
      closed = true;
      const off = await unlisten;
      await off?.().catch(() => undefined);
    },
  };
}
