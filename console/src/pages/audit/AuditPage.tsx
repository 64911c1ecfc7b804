import { Badge, Button, Code, Group, Select, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { api, unwrap } from '../../api/client';
import type { AuditEntry } from '../../api/types';
import { when } from '../../components/format';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { auditSubject, SubjectLink } from '../../components/subject-link';
import { diff, show } from './diff';

const PAGE = 25;
const ENTITIES = ['branch', 'exchange', 'currency', 'offer', 'paymentMethod', 'staff', 'client', 'order', 'apiKey', 'webhook'] as const;
type Entity = (typeof ENTITIES)[number];

interface Filters { entityType: Entity | ''; entityId: string; action: string; from: string; to: string }
const EMPTY: Filters = { entityType: '', entityId: '', action: '', from: '', to: '' };

/** The query of the filters that are set; dates are whole days in the browser's time zone, `to` included. */
function query(f: Filters, page: number) {
  const day = (d: string, next = false) => { const t = new Date(`${d}T00:00:00`); if (next) t.setDate(t.getDate() + 1); return t.toISOString(); };
  return {
    ...(f.entityType ? { entityType: f.entityType } : {}),
    ...(f.entityId.trim() ? { entityId: f.entityId.trim() } : {}),
    ...(f.action.trim() ? { action: f.action.trim() } : {}),
    ...(f.from ? { from: day(f.from) } : {}),
    ...(f.to ? { to: day(f.to, true) } : {}),
    skip: (page - 1) * PAGE, limit: PAGE,
  };
}

/** Who changed what and when (admins: their branch; the superadmin: everything), each change with its before and after. */
export function AuditPage() {
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const set = (patch: Partial<Filters>) => { setFilters((f) => ({ ...f, ...patch })); setPage(1); };
  const log = useQuery({
    queryKey: ['audit', filters, page],
    placeholderData: keepPreviousData,
    queryFn: () => unwrap(api.GET('/api/v1/admin/audit', { params: { query: query(filters, page) } })),
  });
  return (
    <>
      <PageHeader title="Audit log" />
      <Group mb="md" align="flex-end" wrap="wrap">
        <Select label="Entity" placeholder="Any" clearable data={[...ENTITIES]} value={filters.entityType || null} onChange={(v) => set({ entityType: (v ?? '') as Entity | '' })} w={160} />
        <TextInput label="Entity id" value={filters.entityId} onChange={(e) => set({ entityId: e.currentTarget.value })} w={140} />
        <TextInput label="Action" placeholder="e.g. offer.update" value={filters.action} onChange={(e) => set({ action: e.currentTarget.value })} w={180} />
        <TextInput label="From" type="date" value={filters.from} onChange={(e) => set({ from: e.currentTarget.value })} />
        <TextInput label="To" type="date" value={filters.to} onChange={(e) => set({ to: e.currentTarget.value })} />
        <Button variant="subtle" onClick={() => { setFilters(EMPTY); setPage(1); }}>Clear</Button>
      </Group>
      <QueryState query={log}>
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={760}>
              <Table aria-label="Audit log">
                <Table.Thead><Table.Tr><Table.Th>When</Table.Th><Table.Th>Who</Table.Th><Table.Th>Action</Table.Th><Table.Th>Entity</Table.Th><Table.Th>Request</Table.Th><Table.Th><VisuallyHidden>Changes</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
                <Table.Tbody>
                  {data.data.length === 0 && <Table.Tr><Table.Td colSpan={6}><Text c="dimmed">No changes match.</Text></Table.Td></Table.Tr>}
                  {data.data.map((e) => (
                    <Fragment key={e.id}>
                      <Table.Tr>
                        <Table.Td>{when(e.createdAt)}</Table.Td>
                        <Table.Td>{e.actor === 'cli' ? <Badge variant="light">command line</Badge> : <>{e.staffEmail ?? `staff ${e.staffUserId}`} <Text span c="dimmed" size="sm">({e.role})</Text></>}</Table.Td>
                        <Table.Td><Code>{e.action}</Code></Table.Td>
                        <Table.Td><SubjectLink subject={auditSubject(e)}>{e.entityType} {e.entityId}</SubjectLink></Table.Td>
                        <Table.Td><Text size="xs" c="dimmed">{e.ip ?? ''} {e.requestId ?? ''}</Text></Table.Td>
                        <Table.Td><Button size="xs" variant="light" aria-expanded={open === e.id} onClick={() => setOpen(open === e.id ? null : e.id)}>{open === e.id ? 'Hide' : 'Changes'}</Button></Table.Td>
                      </Table.Tr>
                      {open === e.id && <Table.Tr><Table.Td colSpan={6}><Changes entry={e} /></Table.Td></Table.Tr>}
                    </Fragment>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <Pager total={data.meta.total} pageSize={PAGE} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}

/** A long value (a URL, a list) wraps inside its column instead of pushing After out of view. */
const VALUE = { overflowWrap: 'anywhere' } as const;

/** The before/after of one change, field by field; changed fields first and marked. */
function Changes({ entry }: { entry: AuditEntry }) {
  const rows = diff(entry.before, entry.after);
  if (rows.length === 0) return <Text c="dimmed">No field values recorded.</Text>;
  return (
    <Table aria-label={`Changes of ${entry.action} ${entry.entityId}`} withTableBorder>
      <Table.Thead><Table.Tr><Table.Th>Field</Table.Th><Table.Th>Before</Table.Th><Table.Th>After</Table.Th></Table.Tr></Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.field} fw={r.changed && entry.before ? 600 : undefined}>
            <Table.Td>{r.field}</Table.Td>
            <Table.Td c={r.changed ? 'red' : undefined} style={VALUE}>{show(r.before)}</Table.Td>
            <Table.Td c={r.changed ? 'teal' : undefined} style={VALUE}>{show(r.after)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
