import { Badge, Button, Code, Group, Modal, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { modals } from '@mantine/modals';
import type { ApiKey, BranchKey } from '../../api/types';
import { useMe } from '../../auth/use-me';
import { when } from '../../components/format';
import { nameOf, useLookups } from '../../components/lookups';
import { showDone } from '../../components/notify';
import { RollKeyForm } from './RollKeyForm';
import { editOrigins, originsText } from './origins';
import { mayRoll, useRevoke } from './use-keys';

function state(k: ApiKey) {
  if (!k.isActive) return <Badge color="gray" variant="light">revoked</Badge>;
  if (k.expiresAt && new Date(k.expiresAt) < new Date()) return <Badge color="orange" variant="light">expired</Badge>;
  if (k.replacedBy) return <Badge color="yellow" variant="light">rolled</Badge>;
  return <Badge color="teal" variant="light">active</Badge>;
}

/** Keys by prefix (the key itself is never shown again), with last use and expiry, and a revoke button. */
export function KeyTable({ keys, asAdmin, label }: { keys: (ApiKey | BranchKey)[]; asAdmin: boolean; label: string }) {
  const lookups = useLookups();
  const me = useMe();
  const revoke = useRevoke(asAdmin);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [keyShown, setKeyShown] = useState(false);
  const confirm = (k: ApiKey) => modals.openConfirmModal({
    title: `Revoke “${k.name}”?`,
    children: <Text size="sm">Every request with this key is refused from now on, on every server. This cannot be undone.</Text>,
    labels: { confirm: 'Revoke', cancel: 'Keep it' },
    confirmProps: { color: 'red' },
    onConfirm: () => revoke.mutate(k.id, { onSuccess: () => showDone(`${k.name}: revoked`) }),
  });
  if (keys.length === 0) return <Text c="dimmed" py="sm">No keys.</Text>;
  return (
    <>
    {/* The new raw key is shown once: only "I have stored it" may close the dialog then. */}
    <Modal opened={rolling !== null} onClose={() => setRolling(null)} title={`Roll “${rolling?.name ?? ''}”`} size="lg" closeOnClickOutside={false}
      closeOnEscape={!keyShown} withCloseButton={!keyShown}>
      {rolling && <RollKeyForm apiKey={rolling} asAdmin={asAdmin} onRolled={() => setKeyShown(true)} onDone={() => { setKeyShown(false); setRolling(null); }} />}
    </Modal>
    <Table.ScrollContainer minWidth={960}>
      <Table aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th><Table.Th>Type</Table.Th><Table.Th>Prefix</Table.Th><Table.Th>Branch</Table.Th><Table.Th>Origins</Table.Th>
            {asAdmin && <Table.Th>Owner</Table.Th>}<Table.Th>Last used</Table.Th><Table.Th>Expires</Table.Th><Table.Th>State</Table.Th><Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {keys.map((k) => (
            <Table.Tr key={k.id} data-key-id={k.id}>
              <Table.Td>{k.name}</Table.Td>
              <Table.Td>{k.type}</Table.Td>
              <Table.Td><Code>{k.keyPrefix}…</Code></Table.Td>
              <Table.Td>{k.branchId === null ? '—' : nameOf(lookups.data?.branches, k.branchId)}</Table.Td>
              <Table.Td>{originsText(k)}</Table.Td>
              {asAdmin && <Table.Td>{'ownerEmail' in k ? k.ownerEmail : ''}</Table.Td>}
              <Table.Td>{k.lastUsedAt ? when(k.lastUsedAt) : 'never'}</Table.Td>
              <Table.Td>{k.expiresAt ? when(k.expiresAt) : 'never'}</Table.Td>
              <Table.Td>{state(k)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {k.isActive && !k.replacedBy && mayRoll(me.data, k) && <Button size="xs" variant="subtle" onClick={() => setRolling(k)} aria-label={`Roll ${k.name}`}>Roll</Button>}
                  {!asAdmin && k.isActive && k.type === 'public' && <Button size="xs" variant="subtle" onClick={() => editOrigins(k)} aria-label={`Origins of ${k.name}`}>Origins</Button>}
                  {k.isActive && <Button size="xs" color="red" variant="subtle" onClick={() => confirm(k)} aria-label={`Revoke ${k.name}`}>Revoke</Button>}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
    </>
  );
}
