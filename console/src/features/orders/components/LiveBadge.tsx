import { Badge } from '@mantine/core';
import type { StreamState } from '../hooks/use-order-stream';

export function LiveBadge({ state }: { state: StreamState }) {
  const [color, label] =
    state === 'live'
      ? ['teal', 'Live']
      : state === 'connecting'
        ? ['gray', 'Connecting…']
        : ['orange', 'Reconnecting…'];
  return (
    <Badge color={color} variant="dot" role="status" aria-live="polite" data-stream={state}>
      {label}
    </Badge>
  );
}
