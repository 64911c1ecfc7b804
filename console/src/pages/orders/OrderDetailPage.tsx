import { Anchor, Group, SimpleGrid, Stack } from '@mantine/core';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { can, useMe } from '../../auth/use-me';
import { PageHeader } from '../../components/PageHeader';
import { LoadFailed, QueryState } from '../../components/QueryState';
import { routeId } from '../../components/route-id';
import { boardBehind } from './back-to-board';
import { MovePanel, ORDER_STATUS_ID } from './MovePanel';
import { STATUS_LABEL } from './statuses';
import { OrderFacts } from './OrderFacts';
import { OrderHistory } from './OrderHistory';
import { SandboxBadge } from './SandboxBadge';
import { StatusBadge } from './StatusBadge';
import { useOrder } from './use-order';
import { useOrderStream } from './use-order-stream';

/** One order: its facts, its history, and the moves the counter may make now. Stays current by itself. */
export function OrderDetailPage() {
  const id = routeId(useParams().id);
  return id === null ? <><LoadFailed message="Order not found" /><Group mt="sm"><BackToBoard /></Group></> : <OrderDetail id={id} />;
}

/**
 * Back to the board as the user left it: one step back in history when the board opened this order (its search and
 * filters come back with it), else the board itself.
 */
function BackToBoard() {
  const key = useLocation().key;
  const navigate = useNavigate();
  const board = boardBehind(key);
  return (
    <Anchor component={Link} to={board ?? '/orders'} size="sm" data-back={board ? 'history' : 'board'}
      onClick={(e: React.MouseEvent<HTMLAnchorElement>) => {
        // A click that opens a new tab or window keeps its default.
        if (!board || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void navigate(-1);
      }}>
      Back to the board
    </Anchor>
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
              <StatusBadge status={o.status} id={ORDER_STATUS_ID} tabIndex={-1} size="lg" aria-label={`Status: ${STATUS_LABEL[o.status]}`} />
              <BackToBoard />
            </PageHeader>
            <MovePanel order={o} canWrite={can(me.data, 'orders:write')} />
            <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="md">
              <Group style={{ gridColumn: 'span 2' }} align="stretch" grow><OrderFacts order={o} /></Group>
              <OrderHistory order={o} />
            </SimpleGrid>
          </Stack>
        )}
      </QueryState>
      {/* Not found, or not this operator's: the way back stays. */}
      {order.isError && <Group mt="sm"><BackToBoard /></Group>}
    </>
  );
}
