import { useQueryClient } from '@tanstack/react-query';
import { createEventSource } from 'eventsource-client';
import { useEffect, useRef, useState } from 'react';
import type { OrderChange } from '../../api/types';
import { session, useToken } from '../../auth/session';

export type StreamState = 'connecting' | 'live' | 'reconnecting';

/**
 * The live feed of order changes (GET /admin/orders/stream) read with fetch, so the token travels in the
 * Authorization header and never in a URL. Each change refreshes the order lists and that order; after a
 * reconnect everything is refreshed, since changes made meanwhile were not heard.
 */
export function useOrderStream(onChange?: (change: OrderChange) => void): StreamState {
  const token = useToken();
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  const handler = useRef(onChange);
  // Not during render: a render React throws away must not leave its callback behind.
  useEffect(() => { handler.current = onChange; });

  useEffect(() => {
    if (!token) return undefined;
    let heardBefore = false;
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
        if (message.event === 'ready') {
          setState('live');
          if (heardBefore) void queryClient.invalidateQueries({ queryKey: ['orders'] });
          heardBefore = true;
        } else if (message.event === 'order') {
          const change = JSON.parse(message.data) as OrderChange;
          void queryClient.invalidateQueries({ queryKey: ['orders'] });
          void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
          handler.current?.(change);
        }
      },
      onScheduleReconnect: () => setState('reconnecting'),
    });
    return () => source.close();
  }, [token, queryClient]);

  return state;
}
