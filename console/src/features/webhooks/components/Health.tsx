import { Badge, Group } from '@mantine/core';
import type { AdminWebhook } from '../../../lib/api/types';
import { grouped, when } from '../../../lib/format';

/** Active and delivering, failing (consecutive failed attempts), or deactivated since a date. */
export function Health({ hook }: { hook: AdminWebhook }) {
  if (!hook.isActive)
    return (
      <Badge color="red" variant="light" data-health="inactive">
        deactivated {when(hook.deactivatedAt)}
      </Badge>
    );
  if (hook.failCount > 0)
    return (
      <Badge color="orange" variant="light" data-health="failing">
        {grouped(hook.failCount)} failed in a row
      </Badge>
    );
  return (
    <Group gap={4}>
      <Badge color="teal" variant="light" data-health="ok">
        healthy
      </Badge>
    </Group>
  );
}

export const DELIVERY_COLOR: Record<string, string> = {
  pending: 'blue',
  succeeded: 'teal',
  failed: 'red',
  abandoned: 'gray',
};
