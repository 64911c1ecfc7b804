import { Group, SimpleGrid, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { LoadFailed, QueryState } from '../../components/QueryState';
import { can, useMe } from '../../lib/auth/me';
import { routeId } from '../../lib/route-id';
import {
  BackToBoard,
  MovePanel,
  ORDER_STATUS_ID,
  OrderFacts,
  OrderHistory,
  PrintReceiptButton,
  SandboxBadge,
  STATUS_LABEL,
  StatusBadge,
  useOrder,
  useOrderStream,
} from '../../features/orders';

/** One order: its facts, its history, and the moves the counter may make now. Stays current by itself. */
export function OrderDetailPage() {
  const id = routeId(useParams().id);
  return id === null ? (
    <>
      <LoadFailed message="Order not found" />
      <Group mt="sm">
        <BackToBoard />
      </Group>
    </>
  ) : (
    <OrderDetail id={id} />
  );
}

function OrderDetail({ id }: { id: number }) {
  const me = useMe();
  const order = useOrder(id);
  useOrderStream();
  return (
    <>
      <QueryState query={order}>
        {(o) => (
          <Stack>
            <PageHeader title={`Order #${o.id}`} description={o.hashedId} focusKey={o.id}>
              {o.sandbox && <SandboxBadge size="lg" />}
              {/* Where focus goes after a move (MovePanel): the button pressed may be gone, and <body> says nothing. */}
              <StatusBadge
                status={o.status}
                id={ORDER_STATUS_ID}
                tabIndex={-1}
                size="lg"
                aria-label={`Status: ${STATUS_LABEL[o.status]}`}
              />
              <PrintReceiptButton orderId={o.id} />
              <BackToBoard />
            </PageHeader>
            <MovePanel order={o} canWrite={can(me.data, 'orders:write')} />
            <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
              <Group style={{ gridColumn: 'span 2' }} align="stretch" grow>
                <OrderFacts order={o} />
              </Group>
              <OrderHistory order={o} />
            </SimpleGrid>
          </Stack>
        )}
      </QueryState>
      {/* Not found, or not this operator's: the way back stays. */}
      {order.isError && (
        <Group mt="sm">
          <BackToBoard />
        </Group>
      )}
    </>
  );
}
