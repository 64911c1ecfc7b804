import { Button, Modal, Paper, Table, Title, VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import type { Currency } from '../../lib/api/types';
import { CurrencyForm, useCurrencies } from '../../features/currencies';

/** Currencies of the whole network (superadmin): ticker, name, and how many decimals amounts keep. */
export function CurrenciesPage() {
  const currencies = useCurrencies();
  const [editing, setEditing] = useState<Currency | null>(null);
  return (
    <>
      <PageHeader title="Currencies" />
      <QueryState query={currencies}>
        {(data) => (
          <Table aria-label="Currencies">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Ticker</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Kind</Table.Th>
                <Table.Th>Decimals</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td fw={600}>{c.ticker}</Table.Td>
                  <Table.Td>{c.name}</Table.Td>
                  <Table.Td>{c.kind}</Table.Td>
                  <Table.Td>{c.decimals}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" onClick={() => setEditing(c)} aria-label={`Edit ${c.ticker}`}>
                      Edit
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
      <Paper withBorder p="md" mt="md">
        <Title order={2} size="h5" mb="xs">
          New currency
        </Title>
        <CurrencyForm currency={null} />
      </Paper>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={`Edit ${editing?.ticker ?? ''}`}>
        {editing && <CurrencyForm currency={editing} onSaved={() => setEditing(null)} />}
      </Modal>
    </>
  );
}
