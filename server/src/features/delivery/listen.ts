import pg from 'pg';
import type { Log } from '../../log.js';
import { OUTBOX_CHANNEL } from './outbox.js';

/**
 * Postgres NOTIFY reaches a worker when another connection or process commits new deliveries, so it need not
 * wait for its next poll. A lost connection is re-opened after a second; meanwhile polling still finds the work.
 */
export function listenForDeliveries(url: string, onNotify: () => void, log: Log): { close(): Promise<void> } {
  let closed = false;
  let client: pg.Client | undefined;
  const open = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url, application_name: 'pxs-webhook-listener' });
    client = c;
    const retry = () => {
      if (client !== c) return;
      client = undefined;
      void c.end().catch(() => undefined);
      if (!closed) setTimeout(() => void open(), 1000).unref();
    };
    c.on('notification', onNotify);
    c.on('error', (err) => { log('warn', 'webhook listener lost its connection', { err }); retry(); });
    try {
      await c.connect();
      await c.query(`listen ${OUTBOX_CHANNEL}`);
    } catch (err) {
      log('warn', 'webhook listener could not connect; polling only', { err });
      retry();
    }
  };
  void open();
  return {
    async close() {
      closed = true;
      const c = client;
      client = undefined;
      await c?.end().catch(() => undefined);
    },
  };
}
