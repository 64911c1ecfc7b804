import { Anchor, Badge, Paper, Select, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { grouped, when } from '../../components/format';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { deliverySubject, SubjectLink } from '../../components/subject-link';
import { DeliveryDrawer } from './DeliveryDrawer';
import { DELIVERY_COLOR, Health } from './Health';
import { WebhookActions } from './WebhookActions';
import { useDeliveries, useWebhook } from './use-webhooks';

/** One webhook: its health, its delivery log newest first, and each delivery's attempts (?delivery=<id>). */
export function WebhookPage() {
  const id = useParams().id!;
  const hook = useWebhook(id);
  const [params, setParams] = useSearchParams();
  const [status, setStatus] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const log = useDeliveries(id, status, (page - 1) * 25);
  const open = (deliveryId: string | null) => setParams(deliveryId ? { delivery: deliveryId } : {});
  return (
    <QueryState query={hook}>
      {(h) => (
        <>
          <PageHeader title="Webhook" description={h.url}>
            <Health hook={h} />
            <WebhookActions hook={h} />
          </PageHeader>
          <Text size="sm" mb="md">Events: {h.events.join(', ')} · created {when(h.createdAt)} · <Anchor component={Link} to="/webhooks">all webhooks</Anchor></Text>
          <Paper withBorder p="md" component="section" aria-labelledby="log-title">
            <Title order={2} size="h5" id="log-title" mb="xs">Delivery log</Title>
            <Select label="Status" placeholder="Every status" clearable data={['pending', 'succeeded', 'failed', 'abandoned']} value={status}
              onChange={(v) => { setStatus(v); setPage(1); }} w={200} mb="sm" />
            <QueryState query={log}>
              {(data) => (
                <>
                  <Table.ScrollContainer minWidth={720}>
                    <Table aria-label="Deliveries">
                      <Table.Thead><Table.Tr><Table.Th>Event</Table.Th><Table.Th>About</Table.Th><Table.Th>Status</Table.Th><Table.Th>Attempts</Table.Th><Table.Th>Last answer</Table.Th><Table.Th>Created</Table.Th></Table.Tr></Table.Thead>
                      <Table.Tbody>
                        {data.data.map((d) => (
                          <Table.Tr key={d.id} data-delivery-id={d.id}>
                            <Table.Td><UnstyledButton onClick={() => open(d.id)} aria-label={`Delivery ${d.event} ${when(d.createdAt)}`} c="teal.8" fz="sm">{d.event}</UnstyledButton></Table.Td>
                            <Table.Td>{d.subjectId === null ? '—' : <SubjectLink subject={deliverySubject(d)} />}</Table.Td>
                            <Table.Td><Badge color={DELIVERY_COLOR[d.status]} variant="light">{d.status}</Badge></Table.Td>
                            <Table.Td>{grouped(d.attempts)}</Table.Td>
                            <Table.Td>{d.lastResponseStatus ?? d.lastError ?? '—'}</Table.Td>
                            <Table.Td>{when(d.createdAt)}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                  {data.data.length === 0 && <Text c="dimmed">No deliveries.</Text>}
                  <Pager total={data.meta.total} pageSize={25} page={page} onChange={setPage} />
                </>
              )}
            </QueryState>
          </Paper>
          <DeliveryDrawer hookId={id} deliveryId={params.get('delivery')} active={h.isActive} onClose={() => open(null)} />
        </>
      )}
    </QueryState>
  );
}
