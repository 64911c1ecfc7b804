import { Alert, Badge, Button, Collapse, Group, Modal, Paper, SimpleGrid, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { PartnerText } from '../../../components/PartnerText';
import { ApiError } from '../../../lib/api/errors';
import { grouped, when } from '../../../lib/format';
import { showDone } from '../../../lib/notify';
import type { RateSource } from '../api/rate-sources';
import { useDeleteRateSource } from '../hooks/use-rate-sources';
import { RateSourceForm } from './RateSourceForm';
import { ago, duration, kindLabel, sourceState, STATE_WORDS } from './source-state';

function Fact({ label, children, field }: { label: string; children: React.ReactNode; field: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" data-field={field}>
        {children}
      </Text>
    </div>
  );
}

/** One source: its health, its last read, what it read, and its edit and delete. */
export function RateSourceCard({ source, branch }: { source: RateSource; branch?: string }) {
  const [pairsOpen, setPairsOpen] = useState(false);
  const [editing, setEditing] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useDeleteRateSource();
  const state = STATE_WORDS[sourceState(source)];
  const confirm = () =>
    modals.openConfirmModal({
      title: `Delete the rate source “${source.name}”?`,
      children: (
        <Text size="sm">
          It is no longer read. A source that prices offers cannot be deleted: switch them to another source or to a
          fixed rate first.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        setRefusal(null);
        remove.mutate(source.id, {
          onSuccess: () => showDone(`Rate source ${source.name} deleted`),
          onError: (err) => {
            if (err instanceof ApiError && err.status === 409) setRefusal(err.message);
          },
        });
      },
    });
  const pairsId = `pairs-${source.id}`;
  return (
    <Paper withBorder p="sm" data-rate-source={source.name}>
      <Group justify="space-between" wrap="wrap" gap="xs" mb="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>
            <PartnerText>{source.name}</PartnerText>
          </Text>
          <Badge variant="light" color="gray">
            {kindLabel(source.kind)}
          </Badge>
          <Badge color={state.color} data-source-state={sourceState(source)}>
            {state.label}
          </Badge>
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <Button size="xs" variant="light" color="red" onClick={confirm} loading={remove.isPending}>
            Delete
          </Button>
        </Group>
      </Group>
      <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }} mb="xs">
        {source.url}
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
        <Fact label="Last good read" field="lastSuccessAt">
          {source.lastSuccessAt ? (
            <span title={when(source.lastSuccessAt)}>
              {ago(source.lastSuccessAt)}
              <Text component="span" size="xs" c="dimmed" display="block">
                {when(source.lastSuccessAt)}
              </Text>
            </span>
          ) : (
            'never'
          )}
        </Fact>
        <Fact label="Read every" field="interval">
          {duration(source.intervalSeconds)}
        </Fact>
        <Fact label="Stale after" field="maxAge">
          {duration(source.maxAgeSeconds)}
        </Fact>
        <Fact label={branch ? 'Branch · offers' : 'Offers priced from it'} field="offers">
          {branch ? `${branch} · ${source.offers}` : source.offers}
        </Fact>
      </SimpleGrid>
      {source.lastError && (
        <Text size="sm" c="red.8" mt="xs" data-field="lastError">
          Last error{source.lastErrorAt ? ` (${ago(source.lastErrorAt)})` : ''}: {source.lastError}
        </Text>
      )}
      {refusal && (
        <Alert color="red" mt="xs" title="Not deleted" withCloseButton onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      )}
      <Button
        size="compact-sm"
        variant="subtle"
        mt="xs"
        onClick={() => setPairsOpen((o) => !o)}
        aria-expanded={pairsOpen}
        aria-controls={pairsId}
        disabled={source.pairs.length === 0}
      >
        {source.pairs.length === 0
          ? 'No pairs read yet'
          : `${pairsOpen ? 'Hide' : 'Show'} the ${source.pairs.length} pair${source.pairs.length === 1 ? '' : 's'} read`}
      </Button>
      <Collapse expanded={pairsOpen} id={pairsId}>
        <Table.ScrollContainer minWidth={240} maxHeight={320}>
          <Table aria-label={`Pairs read by ${source.name}`} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Pair</Table.Th>
                <Table.Th>1 base =</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {source.pairs.map((p) => (
                <Table.Tr key={p.pair} data-pair={p.pair}>
                  <Table.Td>{p.pair}</Table.Td>
                  <Table.Td>
                    {grouped(p.rate)} {p.quote}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Collapse>
      <Modal opened={editing} onClose={() => setEditing(false)} title={`Change ${source.name}`} size="lg">
        <RateSourceForm source={source} onDone={() => setEditing(false)} />
      </Modal>
    </Paper>
  );
}
