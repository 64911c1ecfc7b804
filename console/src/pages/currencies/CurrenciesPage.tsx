import { Button, Group, Modal, NumberInput, Paper, Select, Table, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { Currency } from '../../api/types';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useUnsavedChanges } from '../../components/unsaved-guard';
import { fieldErrorsTo, useSave } from '../../components/use-save';

type Fields = { ticker: string; name: string; decimals: number | string; kind: string };

/** Currencies of the whole network (superadmin): ticker, name, and how many decimals amounts keep. */
export function CurrenciesPage() {
  const currencies = useQuery({ queryKey: ['currencies'], queryFn: () => unwrap(api.GET('/api/v1/admin/currencies', { params: { query: { limit: 100 } } })) });
  const [editing, setEditing] = useState<Currency | null>(null);
  return (
    <>
      <PageHeader title="Currencies" />
      <QueryState query={currencies}>
        {(data) => (
          <Table aria-label="Currencies">
            <Table.Thead><Table.Tr><Table.Th>Ticker</Table.Th><Table.Th>Name</Table.Th><Table.Th>Kind</Table.Th><Table.Th>Decimals</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {data.data.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td fw={600}>{c.ticker}</Table.Td><Table.Td>{c.name}</Table.Td><Table.Td>{c.kind}</Table.Td><Table.Td>{c.decimals}</Table.Td>
                  <Table.Td><Button size="xs" variant="subtle" onClick={() => setEditing(c)} aria-label={`Edit ${c.ticker}`}>Edit</Button></Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
      <Paper withBorder p="md" mt="md"><Title order={2} size="h5" mb="xs">New currency</Title><CurrencyForm currency={null} /></Paper>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={`Edit ${editing?.ticker ?? ''}`}>
        {editing && <CurrencyForm currency={editing} onSaved={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function CurrencyForm({ currency, onSaved }: { currency: Currency | null; onSaved?: () => void }) {
  const form = useForm<Fields>({ initialValues: { ticker: currency?.ticker ?? '', name: currency?.name ?? '', decimals: currency?.decimals ?? 2, kind: currency?.kind ?? 'fiat' } });
  useUnsavedChanges(form.isDirty(), currency ? `Currency ${currency.ticker}` : 'New currency');
  const save = useSave((v: Fields) => {
    const body = { ticker: v.ticker.trim().toUpperCase(), name: v.name, decimals: Number(v.decimals), kind: v.kind as 'fiat' };
    return currency ? unwrap(api.PATCH('/api/v1/admin/currencies/{id}', { params: { path: { id: currency.id } }, body }))
      : unwrap(api.POST('/api/v1/admin/currencies', { body }));
  }, [['currencies'], ['lookups']], (c) => `${c.ticker}: saved`);
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v, { onSuccess: () => { if (!currency) form.reset(); onSaved?.(); }, onError: fieldErrorsTo(form) }))}>
      <Group align="flex-start" wrap="wrap">
        <TextInput label="Ticker" required w={120} {...form.getInputProps('ticker')} />
        <TextInput label="Name" required w={200} {...form.getInputProps('name')} />
        <NumberInput label="Decimals" required min={0} max={18} clampBehavior="none" w={110} hideControls {...form.getInputProps('decimals')} />
        <Select label="Kind" data={['fiat', 'crypto']} w={120} allowDeselect={false} {...form.getInputProps('kind')} />
        <Button type="submit" mt={25} loading={save.isPending}>{currency ? 'Save' : 'Add'}</Button>
      </Group>
    </form>
  );
}
