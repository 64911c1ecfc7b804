import { Table, Text } from '@mantine/core';
import type { AuditEntry } from '../../../lib/api/types';
import { diff, show } from './diff';

/** A long value (a URL, a list) wraps inside its column instead of pushing After out of view. */
const VALUE = { overflowWrap: 'anywhere' } as const;

/** The before/after of one change, field by field; changed fields first and marked. */
export function AuditChanges({ entry }: { entry: AuditEntry }) {
  const rows = diff(entry.before, entry.after);
  if (rows.length === 0) return <Text c="dimmed">No field values recorded.</Text>;
  return (
    <Table aria-label={`Changes of ${entry.action} ${entry.entityId}`} withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.field} fw={r.changed && entry.before ? 600 : undefined}>
            <Table.Td>{r.field}</Table.Td>
            <Table.Td c={r.changed ? 'red' : undefined} style={VALUE}>
              {show(r.before)}
            </Table.Td>
            <Table.Td c={r.changed ? 'teal' : undefined} style={VALUE}>
              {show(r.after)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
