import { Anchor, Group, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { AdminOrder, FoundOrder } from '../../../lib/api/types';
import { amount, when } from '../../../lib/format';
import { nameOf, useLookups } from '../../lookups';
import { PartnerText } from '../../../components/PartnerText';
import { SandboxBadge } from './SandboxBadge';
import { StatusBadge } from './StatusBadge';

/** Orders as rows, for the full list and the search results; the id is the link to the order. */
export function OrderTable({ orders, caption }: { orders: (AdminOrder | FoundOrder)[]; caption: string }) {
  const lookups = useLookups();
  if (orders.length === 0)
    return (
      <Text c="dimmed" py="md">
        No orders.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Order</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Exchange</Table.Th>
            <Table.Th>Client gives</Table.Th>
            <Table.Th>Client gets</Table.Th>
            <Table.Th>Client</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {orders.map((o) => (
            <Table.Tr key={o.id} data-order-id={o.id}>
              <Table.Td>
                <Anchor component={Link} to={`/orders/${o.id}`}>
                  #{o.id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <StatusBadge status={o.status} />
                  {o.sandbox && <SandboxBadge />}
                </Group>
              </Table.Td>
              <Table.Td>{nameOf(lookups.data?.exchanges, o.cashbox.id)}</Table.Td>
              <Table.Td>
                {amount(o.clientAmount)} {o.currency1.code}
              </Table.Td>
              <Table.Td>
                {amount(o.exchangeAmount)} {o.currency2.code}
              </Table.Td>
              <Table.Td>
                {o.client ? (
                  <>
                    <PartnerText>{o.client.name}</PartnerText> · {o.client.phone}
                  </>
                ) : o.user ? (
                  <Text span c="dimmed" size="sm">
                    not shown to you
                  </Text>
                ) : (
                  '—'
                )}
              </Table.Td>
              <Table.Td>{when(o.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
