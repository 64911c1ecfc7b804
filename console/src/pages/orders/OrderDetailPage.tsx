import { Anchor, Group, SimpleGrid, Stack } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { can, useMe } from '../../auth/use-me';
import { PageHeader } from '../../components/PageHeader';
import { LoadFailed, QueryState } from '../../components/QueryState';
import { routeId } from '../../components/route-id';
import { MovePanel } from './MovePanel';
import { OrderFacts } from './OrderFacts';
import { OrderHistory } from './OrderHistory';
import { StatusBadge } from './StatusBadge';
import { useOrder } from './use-order';
import { useOrderStream } from './use-order-stream';

/** One order: its facts, its history, and the moves the counter may make now. Stays current by itself. */
export function OrderDetailPage() {
  const id = routeId(useParams().id);
  return id === null ? <LoadFailed message="Order not found" /> : <OrderDetail id={id} />;
}

function OrderDetail({ id }: { id: number }) {
  const me = useMe();
  const order = useOrder(id);
  useOrderStream();
  return (
    <QueryState query={order}>
      {(o) => (
        <Stack>
          <PageHeader title={`Order #${o.id}`} description={o.hashedId}>
            <StatusBadge status={o.status} />
            <Anchor component={Link} to="/orders" size="sm">Back to the board</Anchor>
          </PageHeader>
          <MovePanel order={o} canWrite={can(me.data, 'orders:write')} />
          <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
            <Group style={{ gridColumn: 'span 2' }} align="stretch" grow><OrderFacts order={o} /></Group>
            <OrderHistory order={o} />
          </SimpleGrid>
        </Stack>
      )}
    </QueryState>
  );
}
