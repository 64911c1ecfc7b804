import { Paper, SimpleGrid, Text, Title } from '@mantine/core';
import type { Dashboard } from '../../../lib/api/types';
import { grouped } from '../../../lib/format';
import { useOrderStream } from '../hooks/use-order-stream';
import { STATUSES, STATUS_COLOR, STATUS_LABEL } from './statuses';

/** Today's orders by status, kept current by the order stream. */
export function TodayCounts({ orders }: { orders: NonNullable<Dashboard['orders']> }) {
  useOrderStream();
  return (
    <section aria-labelledby="today-title">
      <Title order={2} size="h4" id="today-title" mb="xs">
        Today's orders: {grouped(orders.total)}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        {STATUSES.map((s) => (
          <Paper key={s} withBorder p="sm" data-count={s}>
            <Text size="xs" c="dimmed">
              {STATUS_LABEL[s]}
            </Text>
            <Text fz={28} fw={700} c={STATUS_COLOR[s]}>
              {grouped(orders.byStatus[s])}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}
