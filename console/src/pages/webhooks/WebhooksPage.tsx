import { Anchor, SegmentedControl, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { nameOf, useLookups } from '../../components/lookups';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { Health } from './Health';
import { useWebhooks } from './use-webhooks';

/** The webhooks the user may see (its branch's, every one for a superadmin, an operator's own), with their health. */
export function WebhooksPage() {
  const lookups = useLookups();
  const [show, setShow] = useState('all');
  const hooks = useWebhooks(show === 'all' ? null : show === 'active');
  return (
    <>
      <PageHeader title="Webhooks" description="Partners register these with their keys; here you watch them deliver and help when they do not." />
      <SegmentedControl mb="md" value={show} onChange={setShow} aria-label="Which webhooks"
        data={[{ value: 'all', label: 'All' }, { value: 'active', label: 'Active' }, { value: 'inactive', label: 'Deactivated' }]} />
      <QueryState query={hooks}>
        {(data) => data.data.length === 0 ? <Text c="dimmed">No webhooks.</Text> : (
          <Table.ScrollContainer minWidth={760}>
            <Table aria-label="Webhooks">
              <Table.Thead><Table.Tr><Table.Th>URL</Table.Th><Table.Th>Events</Table.Th><Table.Th>Owner</Table.Th><Table.Th>Health</Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {data.data.map((h) => (
                  <Table.Tr key={h.id} data-webhook-id={h.id}>
                    <Table.Td><Anchor component={Link} to={`/webhooks/${h.id}`}>{h.url}</Anchor></Table.Td>
                    <Table.Td><Text size="xs">{h.events.join(', ')}</Text></Table.Td>
                    <Table.Td>{h.staffUserId !== null ? h.staffEmail ?? 'a former staff user' : `branch ${nameOf(lookups.data?.branches, h.branchId)}`}</Table.Td>
                    <Table.Td><Health hook={h} /></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </>
  );
}
