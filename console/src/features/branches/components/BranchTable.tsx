import { Switch, Table } from '@mantine/core';
import type { Branch } from '../../../lib/api/types';
import { when } from '../../../lib/format';
import { useSetSandbox } from '../hooks/use-branches';

/** The network's branches, each with its sandbox switch. */
export function BranchTable({ branches }: { branches: Branch[] }) {
  const sandbox = useSetSandbox();
  return (
    <Table aria-label="Branches">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Id</Table.Th>
          <Table.Th>Name</Table.Th>
          <Table.Th>Sandbox</Table.Th>
          <Table.Th>Created</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {branches.map((b) => (
          <Table.Tr key={b.id}>
            <Table.Td>{b.id}</Table.Td>
            <Table.Td>{b.name}</Table.Td>
            <Table.Td>
              <Switch
                aria-label={`${b.name} is a sandbox`}
                checked={b.isSandbox}
                disabled={sandbox.isPending}
                onChange={(e) => sandbox.mutate({ id: b.id, isSandbox: e.currentTarget.checked })}
              />
            </Table.Td>
            <Table.Td>{when(b.createdAt)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
