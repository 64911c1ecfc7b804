import { Anchor, Paper, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Dashboard } from '../../../lib/api/types';
import { age, amount } from '../../../lib/format';
import { nameOf, useLookups } from '../../lookups';
import { StatusBadge } from './StatusBadge';

/** The open orders waiting longest, as Home lists them. */
export function WaitingOrders({ orders }: { orders: NonNullable<Dashboard['orders']>['waitingLongest'] }) {
  const lookups = useLookups();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="waiting-title">
      <Title order={2} size="h4" id="waiting-title" mb="xs">
        Waiting longest
      </Title>
      {orders.length === 0 ? (
        <Text c="dimmed">No open orders.</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Order</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Exchange</Table.Th>
                <Table.Th>Amounts</Table.Th>
                <Table.Th>Waiting</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {orders.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/orders/${o.id}`}>
                      #{o.id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={o.status} />
                  </Table.Td>
                  <Table.Td>{nameOf(lookups.data?.exchanges, o.exchangeId)}</Table.Td>
                  <Table.Td>
                    {amount(o.clientAmount)} {o.currency1} → {amount(o.exchangeAmount)} {o.currency2}
                  </Table.Td>
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
