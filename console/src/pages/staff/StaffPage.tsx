import { Badge, Button, Modal, Table, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { StaffUser } from '../../api/types';
import { nameOf, useLookups } from '../../components/lookups';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { StaffForm } from './StaffForm';

/** Staff of the branch (every branch for a superadmin): who may log in, with which role, at which exchanges. */
export function StaffPage() {
  const lookups = useLookups();
  const staff = useQuery({ queryKey: ['staff'], queryFn: () => unwrap(api.GET('/api/v1/admin/staff', { params: { query: { limit: 100 } } })) });
  const [editing, setEditing] = useState<StaffUser | 'new' | null>(null);
  return (
    <>
      <PageHeader title="Staff"><Button onClick={() => setEditing('new')}>New staff user</Button></PageHeader>
      <QueryState query={staff}>
        {(data) => (
          <Table.ScrollContainer minWidth={760}>
            <Table aria-label="Staff">
              <Table.Thead><Table.Tr><Table.Th>ID</Table.Th><Table.Th>Email</Table.Th><Table.Th>Role</Table.Th><Table.Th>Branch</Table.Th><Table.Th>Exchanges</Table.Th><Table.Th>Permissions</Table.Th><Table.Th>State</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {data.data.map((u) => (
                  <Table.Tr key={u.id}>
                    {/* Order histories and webhooks name staff by this number. */}
                    <Table.Td>#{u.id}</Table.Td>
                    <Table.Td>{u.email}</Table.Td>
                    <Table.Td><Badge variant="light">{u.role}</Badge></Table.Td>
                    <Table.Td>{u.branchId === null ? 'All' : nameOf(lookups.data?.branches, u.branchId)}</Table.Td>
                    <Table.Td>{u.role === 'operator' ? u.exchangeIds.map((id) => nameOf(lookups.data?.exchanges, id)).join(', ') || 'none' : 'All'}</Table.Td>
                    <Table.Td>{u.role === 'operator' ? u.permissions.join(', ') || 'none' : 'All'}</Table.Td>
                    <Table.Td><Badge variant="light" color={u.isActive ? 'teal' : 'gray'}>{u.isActive ? 'active' : 'deactivated'}</Badge></Table.Td>
                    <Table.Td><Button size="xs" variant="subtle" onClick={() => setEditing(u)} aria-label={`Edit ${u.email}`}>Edit</Button></Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing === 'new' ? 'New staff user' : `Edit ${editing?.email ?? ''}`}>
        {editing && <StaffForm user={editing === 'new' ? null : editing} onSaved={() => setEditing(null)} />}
      </Modal>
    </>
  );
}
