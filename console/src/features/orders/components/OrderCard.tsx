import { Badge, Card, Group, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminOrder } from '../../../lib/api/types';
import { age, amount } from '../../../lib/format';
import { nameOf, useLookups } from '../../lookups';
import { SandboxBadge } from './SandboxBadge';

/**
 * One order on the board: what the client gives and gets, where, and how long it has waited. A link to its page,
 * named by what it shows (no aria-label: a name of its own would hide the amounts from a screen reader).
 */
export function OrderCard({ order, fresh }: { order: AdminOrder; fresh: boolean }) {
  const lookups = useLookups();
  return (
    <UnstyledButton component={Link} to={`/orders/${order.id}`} data-order-id={order.id} w="100%">
      <Card withBorder padding="xs" radius="sm" bg={fresh ? 'teal.0' : undefined}>
        <Group justify="space-between" gap={4} wrap="nowrap">
          <Text fw={600} size="sm">
            <VisuallyHidden>Order </VisuallyHidden>#{order.id}
          </Text>
          {order.sandbox && <SandboxBadge size="xs" />}
          {fresh && (
            <Badge size="xs" color="teal">
              new
            </Badge>
          )}
          <Text size="xs" c="dimmed">
            {age(order.updatedAt)}
          </Text>
        </Group>
        <Text size="sm">
          {amount(order.clientAmount)} {order.currency1.code} → {amount(order.exchangeAmount)} {order.currency2.code}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {nameOf(lookups.data?.exchanges, order.cashbox.id)}
        </Text>
      </Card>
    </UnstyledButton>
  );
}
