import { Anchor, Badge, Button, Modal, Table } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { hasRole, useMe } from '../../auth/use-me';
import { nameOf, useLookups } from '../../components/lookups';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { ExchangeForm } from './ExchangeForm';
import { useExchanges } from './use-exchanges';

export function ExchangesPage() {
  const exchanges = useExchanges();
  const me = useMe();
  const lookups = useLookups();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  const superadmin = hasRole(me.data, 'superadmin');
  return (
    <>
      <PageHeader title="Exchanges" description="Offices, their contacts and opening hours as partners see them.">
        <Button onClick={open}>New exchange</Button>
      </PageHeader>
      <QueryState query={exchanges}>
        {(data) => (
          <Table.ScrollContainer minWidth={700}>
            <Table aria-label="Exchanges">
              <Table.Thead><Table.Tr><Table.Th>Name</Table.Th>{superadmin && <Table.Th>Branch</Table.Th>}<Table.Th>City</Table.Th><Table.Th>Phone</Table.Th><Table.Th>Days published</Table.Th><Table.Th>State</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {data.data.map((x) => (
                  <Table.Tr key={x.id}>
                    <Table.Td><Anchor component={Link} to={`/exchanges/${x.id}`}>{x.name}</Anchor></Table.Td>
                    {superadmin && <Table.Td>{nameOf(lookups.data?.branches, x.branchId)}</Table.Td>}
                    <Table.Td>{x.city}</Table.Td>
                    <Table.Td>{x.contacts.phoneNumber}</Table.Td>
                    <Table.Td>{x.schedule.filter((d) => !d.isClosed).length} open, {x.schedule.filter((d) => d.isClosed).length} closed</Table.Td>
                    <Table.Td>{x.isActive ? <Badge color="teal" variant="light">active</Badge> : <Badge color="gray" variant="light">inactive</Badge>}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <Modal opened={opened} onClose={close} title="New exchange" size="xl">
        <ExchangeForm exchange={null} withBranch={superadmin} onSaved={(x) => { close(); void navigate(`/exchanges/${x.id}`); }} />
      </Modal>
    </>
  );
}
