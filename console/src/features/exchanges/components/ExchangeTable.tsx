import { Anchor, Badge, Table } from '@mantine/core';
import { Link } from 'react-router';
import type { Exchange, Lookups } from '../../../lib/api/types';
import { nameOf } from '../../lookups';

/** The exchanges in reach, each a link to its page; a superadmin's name their branch. */
export function ExchangeTable({
  exchanges,
  withBranch,
  lookups,
}: {
  exchanges: Exchange[];
  withBranch: boolean;
  lookups: Lookups | undefined;
}) {
  return (
    <Table.ScrollContainer minWidth={700}>
      <Table aria-label="Exchanges">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            {withBranch && <Table.Th>Branch</Table.Th>}
            <Table.Th>City</Table.Th>
            <Table.Th>Phone</Table.Th>
            <Table.Th>Days published</Table.Th>
            <Table.Th>State</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {exchanges.map((x) => (
            <Table.Tr key={x.id}>
              <Table.Td>
                <Anchor component={Link} to={`/exchanges/${x.id}`}>
                  {x.name}
                </Anchor>
              </Table.Td>
              {withBranch && <Table.Td>{nameOf(lookups?.branches, x.branchId)}</Table.Td>}
              <Table.Td>{x.city}</Table.Td>
              <Table.Td>{x.contacts.phoneNumber}</Table.Td>
              <Table.Td>
                {x.schedule.filter((d) => !d.isClosed).length} open, {x.schedule.filter((d) => d.isClosed).length}{' '}
                closed
              </Table.Td>
              <Table.Td>
                {x.isActive ? (
                  <Badge color="teal" variant="light">
                    active
                  </Badge>
                ) : (
                  <Badge color="gray" variant="light">
                    inactive
                  </Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
