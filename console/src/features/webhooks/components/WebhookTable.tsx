import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Lookups, WebhookRow } from '../../../lib/api/types';
import { nameOf } from '../../lookups';
import { Health } from './Health';

/** Webhooks with their owner and health, each a link to its delivery log. */
export function WebhookTable({ hooks, lookups }: { hooks: WebhookRow[]; lookups: Lookups | undefined }) {
  if (hooks.length === 0) return <Text c="dimmed">No webhooks.</Text>;
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table aria-label="Webhooks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>URL</Table.Th>
            <Table.Th>Events</Table.Th>
            <Table.Th>Owner</Table.Th>
            <Table.Th>Health</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {hooks.map((h) => (
            <Table.Tr key={h.id} data-webhook-id={h.id}>
              <Table.Td>
                <Anchor component={Link} to={`/webhooks/${h.id}`}>
                  {h.url}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="xs">{h.events.join(', ')}</Text>
              </Table.Td>
              <Table.Td>
                {h.staffUserId !== null
                  ? (h.staffEmail ?? 'a former staff user')
                  : `branch ${nameOf(lookups?.branches, h.branchId)}`}
              </Table.Td>
              <Table.Td>
                <Health hook={h} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
