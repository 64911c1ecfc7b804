import { Badge, Group, Paper, ScrollArea, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { OrderStatus } from '../../../lib/api/types';
import { grouped } from '../../../lib/format';
import { OrderCard } from './OrderCard';
import { OPEN_STATUSES, STATUS_LABEL } from './statuses';
import { useColumn } from '../hooks/use-orders';

function Column({ status, exchangeId, fresh }: { status: OrderStatus; exchangeId: number | null; fresh: Set<number> }) {
  const column = useColumn(status, exchangeId);
  return (
    <Paper withBorder p="xs" bg="gray.0" component="section" aria-labelledby={`column-${status}`} data-column={status}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} size="h6" id={`column-${status}`}>
          {STATUS_LABEL[status]}
        </Title>
        <Badge variant="white" aria-label={`${grouped(column.data?.meta.total ?? 0)} orders`}>
          {column.data ? grouped(column.data.meta.total) : '…'}
        </Badge>
      </Group>
      <ScrollArea.Autosize mah="calc(100vh - 260px)" type="auto">
        <Stack gap={6}>
          {column.data?.data.map((o) => (
            <OrderCard key={o.id} order={o} fresh={fresh.has(o.id)} />
          ))}
          {column.data?.data.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="md">
              No orders
            </Text>
          )}
          {column.isError && (
            <Text size="sm" c="red">
              {column.error.message}
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
    </Paper>
  );
}

/** The open orders in four queues, one per status that still needs the counter. */
export function BoardColumns({ exchangeId, fresh }: { exchangeId: number | null; fresh: Set<number> }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm">
      {OPEN_STATUSES.map((s) => (
        <Column key={s} status={s} exchangeId={exchangeId} fresh={fresh} />
      ))}
    </SimpleGrid>
  );
}
