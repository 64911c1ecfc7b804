import { Badge, Button, Code, Drawer, Group, Stack, Table, Text, Title } from '@mantine/core';
import { when } from '../../../lib/format';
import { showDone } from '../../../lib/notify';
import { QueryState } from '../../../components/QueryState';
import { deliverySubject, SubjectLink } from '../../../components/subject-link';
import { DELIVERY_COLOR } from './Health';
import { useDelivery, useRetry } from '../hooks/use-webhooks';

/** One delivery: the payload exactly as sent, every attempt with its status, duration and answer, and a retry. */
export function DeliveryDrawer({
  hookId,
  deliveryId,
  active,
  onClose,
}: {
  hookId: string;
  deliveryId: string | null;
  active: boolean;
  onClose: () => void;
}) {
  const delivery = useDelivery(hookId, deliveryId);
  const retry = useRetry(hookId);
  return (
    <Drawer opened={deliveryId !== null} onClose={onClose} position="right" size="xl" title="Delivery">
      <QueryState query={delivery}>
        {(d) => (
          <Stack>
            <Group justify="space-between">
              <Group gap="xs">
                <Badge color={DELIVERY_COLOR[d.status]} data-delivery-status={d.status}>
                  {d.status}
                </Badge>
                <Text size="sm">{d.event}</Text>
                {d.subjectId !== null && (
                  <Text size="sm">
                    about <SubjectLink subject={deliverySubject(d)} />
                  </Text>
                )}
              </Group>
              <Button
                onClick={() =>
                  retry.mutate(d.id, { onSuccess: () => showDone('Delivery queued: it is sent again now') })
                }
                loading={retry.isPending}
                disabled={!active || d.status === 'pending'}
              >
                Retry now
              </Button>
            </Group>
            {!active && (
              <Text size="sm" c="orange">
                The webhook is deactivated: reactivate it before retrying.
              </Text>
            )}
            <Text size="xs" c="dimmed">
              Id {d.id} (the X-Webhook-Delivery header) · created {when(d.createdAt)}
              {d.nextAttemptAt ? ` · next attempt ${when(d.nextAttemptAt)}` : ''}
            </Text>
            <Title order={3} size="h6">
              Attempts
            </Title>
            {d.attemptLog.length === 0 ? (
              <Text size="sm" c="dimmed">
                Not attempted yet.
              </Text>
            ) : (
              <Table aria-label="Attempts">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>#</Table.Th>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>Duration</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Answer or error</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {d.attemptLog.map((a) => (
                    <Table.Tr key={a.attempt} data-attempt={a.attempt} data-response-status={a.responseStatus ?? ''}>
                      <Table.Td>{a.attempt}</Table.Td>
                      <Table.Td>{when(a.startedAt)}</Table.Td>
                      <Table.Td>{a.durationMs} ms</Table.Td>
                      <Table.Td>
                        <Badge
                          variant="light"
                          color={a.responseStatus !== null && a.responseStatus < 300 ? 'teal' : 'red'}
                        >
                          {a.responseStatus ?? 'no answer'}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" style={{ wordBreak: 'break-all' }}>
                          {a.error ?? a.responseBody ?? ''}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Title order={3} size="h6">
              Payload
            </Title>
            <Code block>{JSON.stringify(d.payload, null, 2)}</Code>
          </Stack>
        )}
      </QueryState>
    </Drawer>
  );
}
