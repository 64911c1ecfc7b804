import pg from 'pg';
import { listenPostgres, type Listening, type ListenOptions } from '../../db/notifications.js';
import type { Log } from '../../log.js';
import { OUTBOX_CHANNEL } from './outbox.js';

/**
 * Postgres NOTIFY reaches a worker when another connection or process commits new deliveries, so it need not
 * wait for its next poll. The connection is the catalogue's kind (`listenPostgres`): it reconnects by itself and
 * a heartbeat finds a cut that sends no reset. While it is down, polling still finds the work; when it listens
 * again the worker looks at once, for what was announced in the gap.
 */
export function listenForDeliveries(url: string, onNotify: () => void, log: Log, options?: ListenOptions): Listening {
  let down = false;
  return listenPostgres(
    pg.Client,
    url,
    OUTBOX_CHANNEL,
    {
      notify: onNotify,
      listening: () => {
        if (down) log('info', 'webhook listener is listening again');
        down = false;
        onNotify();
      },
      lost: (err) => {
        if (!down)
          log('warn', 'webhook listener is not listening; polling only until it is back', { err: err?.message });
        down = true;
      },
    },
    options,
  );
}
