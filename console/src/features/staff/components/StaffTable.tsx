import { Badge, Button, Table, VisuallyHidden } from '@mantine/core';
import type { Lookups, StaffUser } from '../../../lib/api/types';
import { nameOf } from '../../lookups';

/** Staff users with their role, branch, exchanges and permissions, each with an Edit button. */
export function StaffTable({
  staff,
  lookups,
  onEdit,
}: {
  staff: StaffUser[];
  lookups: Lookups | undefined;
  onEdit: (user: StaffUser) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table aria-label="Staff">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>ID</Table.Th>
            <Table.Th>Email</Table.Th>
            <Table.Th>Role</Table.Th>
            <Table.Th>Branch</Table.Th>
            <Table.Th>Exchanges</Table.Th>
            <Table.Th>Permissions</Table.Th>
            <Table.Th>State</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {staff.map((u) => (
            <Table.Tr key={u.id}>
              {/* Order histories and webhooks name staff by this number. */}
              <Table.Td>#{u.id}</Table.Td>
              <Table.Td>{u.email}</Table.Td>
              <Table.Td>
                <Badge variant="light">{u.role}</Badge>
              </Table.Td>
              <Table.Td>{u.branchId === null ? 'All' : nameOf(lookups?.branches, u.branchId)}</Table.Td>
              <Table.Td>
                {u.role === 'operator'
                  ? u.exchangeIds.map((id) => nameOf(lookups?.exchanges, id)).join(', ') || 'none'
                  : 'All'}
              </Table.Td>
              <Table.Td>{u.role === 'operator' ? u.permissions.join(', ') || 'none' : 'All'}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={u.isActive ? 'teal' : 'gray'}>
                  {u.isActive ? 'active' : 'deactivated'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="subtle" onClick={() => onEdit(u)} aria-label={`Edit ${u.email}`}>
                  Edit
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
