import { Badge, Paper, Select, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { Pager } from '../../../components/Pager';
import { QueryState } from '../../../components/QueryState';
import { deliverySubject, SubjectLink } from '../../../components/subject-link';
import { grouped, when } from '../../../lib/format';
import { DELIVERY_PAGE, type DeliveryLogState } from '../hooks/use-webhooks';
import { DELIVERY_COLOR } from './Health';

/** A webhook's delivery log, newest first, by status; a delivery's row opens it (`onOpen`). */
export function DeliveryLog({ state, onOpen }: { state: DeliveryLogState; onOpen: (deliveryId: string) => void }) {
  const { status, setStatus, page, setPage, log } = state;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="log-title">
      <Title order={2} size="h5" id="log-title" mb="xs">
        Delivery log
      </Title>
      <Select
        label="Status"
        placeholder="Every status"
        clearable
        data={['pending', 'succeeded', 'failed', 'abandoned']}
        value={status}
        onChange={(v) => {
          setStatus(v);
          setPage(1);
        }}
        w={200}
        mb="sm"
      />
      <QueryState query={log}>
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={720}>
              <Table aria-label="Deliveries">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Event</Table.Th>
                    <Table.Th>About</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Attempts</Table.Th>
                    <Table.Th>Last answer</Table.Th>
                    <Table.Th>Created</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.data.map((d) => (
                    <Table.Tr key={d.id} data-delivery-id={d.id}>
                      <Table.Td>
                        <UnstyledButton
                          onClick={() => onOpen(d.id)}
                          aria-label={`Delivery ${d.event} ${when(d.createdAt)}`}
                          c="teal.8"
                          fz="sm"
                        >
                          {d.event}
                        </UnstyledButton>
                      </Table.Td>
                      <Table.Td>{d.subjectId === null ? '—' : <SubjectLink subject={deliverySubject(d)} />}</Table.Td>
                      <Table.Td>
                        <Badge color={DELIVERY_COLOR[d.status]} variant="light">
                          {d.status}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{grouped(d.attempts)}</Table.Td>
                      <Table.Td>{d.lastResponseStatus ?? d.lastError ?? '—'}</Table.Td>
                      <Table.Td>{when(d.createdAt)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {data.data.length === 0 && <Text c="dimmed">No deliveries.</Text>}
            <Pager total={data.meta.total} pageSize={DELIVERY_PAGE} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
    </Paper>
  );
}
