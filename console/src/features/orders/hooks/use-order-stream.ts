import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { OrderChange } from '../../../lib/api/types';
import { useToken } from '../../../lib/auth/session';
import { homeKeys } from '../../home';
import { orderKeys } from '../api/keys';
import { openOrderStream } from '../api/stream';

export type StreamState = 'connecting' | 'live' | 'reconnecting';

/**
 * The live feed of order changes. Each change refreshes the order lists and that order, and Home's figures; after
 * a reconnect everything is refreshed, since changes made meanwhile were not heard.
 */
export function useOrderStream(onChange?: (change: OrderChange) => void): StreamState {
  const token = useToken();
  const queryClient = useQueryClient();
  const [state, setState] = useState<StreamState>('connecting');
  const handler = useRef(onChange);
  // Not during render: a render React throws away must not leave its callback behind.
  useEffect(() => {
    handler.current = onChange;
  });

  useEffect(() => {
    if (!token) return undefined;
    let heardBefore = false;
    return openOrderStream(token, {
      onReady: () => {
        setState('live');
        if (heardBefore) void queryClient.invalidateQueries({ queryKey: orderKeys.all });
        heardBefore = true;
      },
      onChange: (change) => {
        void queryClient.invalidateQueries({ queryKey: orderKeys.all });
        void queryClient.invalidateQueries({ queryKey: homeKeys.all });
        handler.current?.(change);
      },
      onReconnecting: () => setState('reconnecting'),
    });
  }, [token, queryClient]);

  return state;
}
