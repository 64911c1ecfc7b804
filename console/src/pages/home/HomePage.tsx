import { Alert, Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { useMe } from '../../auth/use-me';
import type { Dashboard } from '../../api/types';
import { age, amount, grouped, when } from '../../components/format';
import { nameOf, useLookups } from '../../components/lookups';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StatusBadge } from '../orders/StatusBadge';
import { STATUSES, STATUS_COLOR, STATUS_LABEL } from '../orders/statuses';
import { useOrderStream } from '../orders/use-order-stream';

function startOfToday(): string {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
}

/** The start of a shift: today's orders by status, the ones waiting longest, and webhooks that need a look. */
export function HomePage() {
  const since = startOfToday();
  const dashboard = useQuery({
    queryKey: ['dashboard', since],
    queryFn: () => unwrap(api.GET('/api/v1/admin/dashboard', { params: { query: { since } } })),
    refetchInterval: 60_000,
  });
  return (
    <>
      <PageHeader title="Home" description={`Today since ${when(since)}`} />
      <NoExchanges />
      <QueryState query={dashboard}>
        {(d) => (
          <Stack>
            {d.orders && <TodayCounts orders={d.orders} />}
            {d.orders && <Waiting orders={d.orders.waitingLongest} />}
            {d.webhooksInTrouble && <WebhooksInTrouble hooks={d.webhooksInTrouble} />}
          </Stack>
        )}
      </QueryState>
    </>
  );
}

/** An operator given no exchange (or moved to a branch where it has none yet) sees only empty pages: say why. */
function NoExchanges() {
  const me = useMe();
  if (me.data?.role !== 'operator' || me.data.exchangeIds === null || me.data.exchangeIds.length > 0) return null;
  return (
    <Alert color="orange" title="You serve no exchange yet" mb="md" data-notice="no-exchanges">
      Your account is not assigned to any exchange, so you see no orders. Ask an admin of your branch to assign you
      one (Staff, Exchanges served).
    </Alert>
  );
}

function TodayCounts({ orders }: { orders: NonNullable<Dashboard['orders']> }) {
  useOrderStream();
  return (
    <section aria-labelledby="today-title">
      <Title order={2} size="h4" id="today-title" mb="xs">Today's orders: {grouped(orders.total)}</Title>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
        {STATUSES.map((s) => (
          <Paper key={s} withBorder p="sm" data-count={s}>
            <Text size="xs" c="dimmed">{STATUS_LABEL[s]}</Text>
            <Text fz={28} fw={700} c={STATUS_COLOR[s]}>{grouped(orders.byStatus[s])}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    </section>
  );
}

function Waiting({ orders }: { orders: NonNullable<Dashboard['orders']>['waitingLongest'] }) {
  const lookups = useLookups();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="waiting-title">
      <Title order={2} size="h4" id="waiting-title" mb="xs">Waiting longest</Title>
      {orders.length === 0 ? <Text c="dimmed">No open orders.</Text> : (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead><Table.Tr><Table.Th>Order</Table.Th><Table.Th>Status</Table.Th><Table.Th>Exchange</Table.Th><Table.Th>Amounts</Table.Th><Table.Th>Waiting</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {orders.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td><Anchor component={Link} to={`/orders/${o.id}`}>#{o.id}</Anchor></Table.Td>
                  <Table.Td><StatusBadge status={o.status} /></Table.Td>
                  <Table.Td>{nameOf(lookups.data?.exchanges, o.exchangeId)}</Table.Td>
                  <Table.Td>{amount(o.clientAmount)} {o.currency1} → {amount(o.exchangeAmount)} {o.currency2}</Table.Td>
                  <Table.Td>{age(o.updatedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}

function WebhooksInTrouble({ hooks }: { hooks: NonNullable<Dashboard['webhooksInTrouble']> }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="hooks-title">
      <Title order={2} size="h4" id="hooks-title" mb="xs">Webhooks in trouble</Title>
      {hooks.length === 0 ? <Alert color="teal" variant="light">Every webhook is delivering.</Alert> : (
        <Stack gap="xs">
          {hooks.map((h) => (
            <Group key={h.id} gap="xs">
              <Anchor component={Link} to={`/webhooks/${h.id}`} size="sm">{h.url}</Anchor>
              {h.isActive ? <Badge color="orange" variant="light">{grouped(h.failCount)} failed in a row</Badge>
                : <Badge color="red" variant="light">deactivated {when(h.deactivatedAt)}</Badge>}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
