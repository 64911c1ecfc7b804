import { Badge, Button, Code, Group, Select, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { Fragment, useState } from 'react';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { auditSubject, SubjectLink } from '../../components/subject-link';
import { when } from '../../lib/format';
import { AUDIT_PAGE, AuditChanges, ENTITIES, useAuditLog, type AuditFilters, type Entity } from '../../features/audit';

const EMPTY: AuditFilters = { entityType: '', entityId: '', action: '', from: '', to: '' };

/** Who changed what and when (admins: their branch; the superadmin: everything), each change with its before and after. */
export function AuditPage() {
  const [filters, setFilters] = useState<AuditFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const set = (patch: Partial<AuditFilters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const log = useAuditLog(filters, page);
  return (
    <>
      <PageHeader title="Audit log" />
      <Group mb="md" align="flex-end" wrap="wrap">
        <Select
          label="Entity"
          placeholder="Any"
          clearable
          data={[...ENTITIES]}
          value={filters.entityType || null}
          onChange={(v) => set({ entityType: (v ?? '') as Entity | '' })}
          w={160}
        />
        <TextInput
          label="Entity id"
          value={filters.entityId}
          onChange={(e) => set({ entityId: e.currentTarget.value })}
          w={140}
        />
        <TextInput
          label="Action"
          placeholder="e.g. offer.update"
          value={filters.action}
          onChange={(e) => set({ action: e.currentTarget.value })}
          w={180}
        />
        <TextInput
          label="From"
          type="date"
          value={filters.from}
          onChange={(e) => set({ from: e.currentTarget.value })}
        />
        <TextInput label="To" type="date" value={filters.to} onChange={(e) => set({ to: e.currentTarget.value })} />
        <Button
          variant="subtle"
          onClick={() => {
            setFilters(EMPTY);
            setPage(1);
          }}
        >
          Clear
        </Button>
      </Group>
      <QueryState query={log}>
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={760}>
              <Table aria-label="Audit log">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>When</Table.Th>
                    <Table.Th>Who</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Entity</Table.Th>
                    <Table.Th>Request</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Changes</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.data.length === 0 && (
                    <Table.Tr>
                      <Table.Td colSpan={6}>
                        <Text c="dimmed">No changes match.</Text>
                      </Table.Td>
                    </Table.Tr>
                  )}
                  {data.data.map((e) => (
                    <Fragment key={e.id}>
                      <Table.Tr>
                        <Table.Td>{when(e.createdAt)}</Table.Td>
                        <Table.Td>
                          {e.actor === 'cli' ? (
                            <Badge variant="light">command line</Badge>
                          ) : (
                            <>
                              {e.staffEmail ?? `staff ${e.staffUserId}`}{' '}
                              <Text span c="dimmed" size="sm">
                                ({e.role})
                              </Text>
                            </>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Code>{e.action}</Code>
                        </Table.Td>
                        <Table.Td>
                          <SubjectLink subject={auditSubject(e)}>
                            {e.entityType} {e.entityId}
                          </SubjectLink>
                        </Table.Td>
                        <Table.Td>
                          <Text size="xs" c="dimmed">
                            {e.ip ?? ''} {e.requestId ?? ''}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Button
                            size="xs"
                            variant="light"
                            aria-expanded={open === e.id}
                            onClick={() => setOpen(open === e.id ? null : e.id)}
                          >
                            {open === e.id ? 'Hide' : 'Changes'}
                          </Button>
                        </Table.Td>
                      </Table.Tr>
                      {open === e.id && (
                        <Table.Tr>
                          <Table.Td colSpan={6}>
                            <AuditChanges entry={e} />
                          </Table.Td>
                        </Table.Tr>
                      )}
                    </Fragment>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Pager total={data.meta.total} pageSize={AUDIT_PAGE} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
