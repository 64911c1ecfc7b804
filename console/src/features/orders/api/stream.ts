import { createEventSource } from 'eventsource-client';
import type { OrderChange } from '../../../lib/api/types';
import { session } from '../../../lib/auth/session';

export interface StreamHandlers {
  /** The server listens: sent at every (re)connection. */
  onReady: () => void;
  onChange: (change: OrderChange) => void;
  onReconnecting: () => void;
}

/**
 * The live feed of order changes (GET /admin/orders/stream) read with fetch, so the token travels in the
 * Authorization header and never in a URL. Returns the function that closes it.
 */
export function openOrderStream(token: string, on: StreamHandlers): () => void {
  const source = createEventSource({
    url: '/api/v1/admin/orders/stream',
    headers: { Authorization: `Bearer ${token}` },
    fetch: async (url, init) => {
      const res = await fetch(url, init);
      if (res.status === 401) {
        session.expire();
        return new Response(null, { status: 204 });
      }
      if (!res.ok) throw new Error(`order stream: HTTP ${res.status}`);
      return res;
    },
    onMessage: (message) => {
      if (message.event === 'ready') on.onReady();
      else if (message.event === 'order') on.onChange(JSON.parse(message.data) as OrderChange);
    },
    onScheduleReconnect: on.onReconnecting,
  });
  return () => source.close();
}
