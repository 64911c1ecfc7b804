import { Button, Modal, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { PartnerText } from '../../components/PartnerText';
import { QueryState } from '../../components/QueryState';
import type { AdminClient } from '../../lib/api/types';
import { can, useMe } from '../../lib/auth/me';
import { when } from '../../lib/format';
import { CLIENT_PAGE, ClientForm, useClients } from '../../features/clients';

/** Client accounts in the user's reach, found by name, email or phone, and corrected when a client asks. */
export function ClientsPage() {
  const me = useMe();
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 250);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminClient | null>(null);
  const clients = useClients(q, page);
  return (
    <>
      <PageHeader title="Clients" />
      <TextInput
        label="Search clients"
        placeholder="Name, email or phone"
        leftSection={<IconSearch size={16} />}
        type="search"
        value={text}
        onChange={(e) => {
          setText(e.currentTarget.value);
          setPage(1);
        }}
        w={380}
        maw="100%"
        mb="md"
      />
      <QueryState query={clients}>
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={640}>
              <Table aria-label="Clients">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Phone</Table.Th>
                    <Table.Th>Since</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.data.map((c) => (
                    <Table.Tr key={c.id}>
                      <Table.Td>
                        <PartnerText>{c.firstName}</PartnerText> <PartnerText>{c.lastName}</PartnerText>
                      </Table.Td>
                      <Table.Td>{c.email}</Table.Td>
                      <Table.Td>{c.phone}</Table.Td>
                      <Table.Td>{when(c.createdAt)}</Table.Td>
                      <Table.Td>
                        {can(me.data, 'clients:write') && (
                          <Button
                            size="xs"
                            variant="subtle"
                            onClick={() => setEditing(c)}
                            aria-label={`Edit ${c.firstName} ${c.lastName}`}
                          >
                            Edit
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {data.data.length === 0 && <Text c="dimmed">{q ? `No clients match “${q}”.` : 'No clients yet.'}</Text>}
            <Pager total={data.meta.total} pageSize={CLIENT_PAGE} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title="Edit client">
        {editing && <ClientForm client={editing} onSaved={() => setEditing(null)} />}
      </Modal>
    </>
  );
}
