import { Button, Group, Modal, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { AdminClient } from '../../api/types';
import { can, useMe } from '../../auth/use-me';
import { when } from '../../components/format';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { PartnerText } from '../../components/PartnerText';
import { QueryState } from '../../components/QueryState';
import { useUnsavedChanges } from '../../components/unsaved-guard';
import { fieldErrorsTo, useSave } from '../../components/use-save';

const PAGE = 25;

/** Client accounts in the user's reach, found by name, email or phone, and corrected when a client asks. */
export function ClientsPage() {
  const me = useMe();
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 250);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminClient | null>(null);
  const clients = useQuery({
    queryKey: ['clients', q, page],
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/api/v1/admin/clients', { params: { query: { ...(q ? { q } : {}), skip: (page - 1) * PAGE, limit: PAGE } } })),
  });
  return (
    <>
      <PageHeader title="Clients" />
      <TextInput label="Search clients" placeholder="Name, email or phone" leftSection={<IconSearch size={16} />} type="search"
        value={text} onChange={(e) => { setText(e.currentTarget.value); setPage(1); }} w={380} maw="100%" mb="md" />
      <QueryState query={clients}>
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table aria-label="Clients">
                <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Email</Table.Th><Table.Th>Phone</Table.Th><Table.Th>Since</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {data.data.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td><PartnerText>{c.firstName}</PartnerText> <PartnerText>{c.lastName}</PartnerText></Table.Td><Table.Td>{c.email}</Table.Td><Table.Td>{c.phone}</Table.Td><Table.Td>{when(c.createdAt)}</Table.Td>
                      <Table.Td>{can(me.data, 'clients:write') && <Button size="xs" variant="subtle" onClick={() => setEditing(c)} aria-label={`Edit ${c.firstName} ${c.lastName}`}>Edit</Button>}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {data.data.length === 0 && <Text c="dimmed">{q ? `No clients match “${q}”.` : 'No clients yet.'}</Text>}
            <Pager total={data.meta.total} pageSize={PAGE} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Edit client">
        {editing && <ClientForm client={editing} onSaved={() => setEditing(null)} />}
      </Modal>
    </>
  );
}

function ClientForm({ client, onSaved }: { client: AdminClient; onSaved: () => void }) {
  const form = useForm({ initialValues: { firstName: client.firstName, lastName: client.lastName, email: client.email, phone: client.phone } });
  useUnsavedChanges(form.isDirty(), `Client ${client.firstName} ${client.lastName}`);
  const save = useSave((body: typeof form.values) => unwrap(api.PATCH('/api/v1/admin/clients/{id}', { params: { path: { id: client.id } }, body })),
    [['clients']], (c) => `${c.firstName} ${c.lastName}: saved`);
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v, { onSuccess: onSaved, onError: fieldErrorsTo(form) }))}>
      <TextInput label="First name" required {...form.getInputProps('firstName')} />
      <TextInput label="Last name" required {...form.getInputProps('lastName')} />
      <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
      <TextInput label="Phone" description="+ then 7 to 15 digits" required {...form.getInputProps('phone')} />
      <Group mt="md"><Button type="submit" loading={save.isPending}>Save</Button></Group>
    </form>
  );
}
