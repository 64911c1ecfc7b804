import { Badge, Button, Code, Group, Modal, Table, Text, VisuallyHidden } from '@mantine/core';
import { useState, type CSSProperties } from 'react';
import { modals } from '@mantine/modals';
import type { ApiKey, BranchKey } from '../../../lib/api/types';
import { useMe } from '../../../lib/auth/me';
import { when } from '../../../lib/format';
import { nameOf, useLookups } from '../../lookups';
import { showDone } from '../../../lib/notify';
import { RollKeyForm } from './RollKeyForm';
import { editOrigins, originsText } from './origins';
import { mayRoll, useRevoke } from '../hooks/use-keys';

function state(k: ApiKey) {
  if (!k.isActive)
    return (
      <Badge color="gray" variant="light">
        revoked
      </Badge>
    );
  if (k.expiresAt && new Date(k.expiresAt) < new Date())
    return (
      <Badge color="orange" variant="light">
        expired
      </Badge>
    );
  if (k.replacedBy)
    return (
      <Badge color="yellow" variant="light">
        rolled
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      active
    </Badge>
  );
}

/** Long words without spaces (an origin, an email, a key's prefix) wrap within their column instead of widening the table. */
const WRAP: CSSProperties = { overflowWrap: 'anywhere' };

/** An email may break after its @ (superadmin@ / demo.local) rather than anywhere. */
function atBreak(email: string | null | undefined) {
  if (!email) return email;
  const at = email.indexOf('@');
  return at < 0 ? (
    email
  ) : (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/**
 * Keys by prefix (the key itself is never shown again), with last use and expiry, and a revoke button. A key's
 * type and prefix stand under its name, last use and expiry share a column, and long words wrap: the actions stay in
 * sight at 1280 px without scrolling sideways (a narrower window still scrolls the table).
 */
export function KeyTable({ keys, asAdmin, label }: { keys: (ApiKey | BranchKey)[]; asAdmin: boolean; label: string }) {
  const lookups = useLookups();
  const me = useMe();
  const revoke = useRevoke(asAdmin);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [keyShown, setKeyShown] = useState(false);
  const confirm = (k: ApiKey) =>
    modals.openConfirmModal({
      title: `Revoke “${k.name}”?`,
      children: (
        <Text size="sm">
          Every request with this key is refused from now on, on every server. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Revoke', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(k.id, { onSuccess: () => showDone(`${k.name}: revoked`) }),
    });
  if (keys.length === 0)
    return (
      <Text c="dimmed" py="sm">
        No keys.
      </Text>
    );
  return (
    <>
      {/* The new raw key is shown once: only "I have stored it" may close the dialog then. */}
      <Modal
        opened={rolling !== null}
        onClose={() => setRolling(null)}
        title={`Roll “${rolling?.name ?? ''}”`}
        size="lg"
        closeOnClickOutside={false}
        closeOnEscape={!keyShown}
        withCloseButton={!keyShown}
      >
        {rolling && (
          <RollKeyForm
            apiKey={rolling}
            asAdmin={asAdmin}
            onRolled={() => setKeyShown(true)}
            onDone={() => {
              setKeyShown(false);
              setRolling(null);
            }}
          />
        )}
      </Modal>
      <Table.ScrollContainer minWidth={720}>
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Key</Table.Th>
              <Table.Th>Branch</Table.Th>
              <Table.Th>Origins</Table.Th>
              {asAdmin && <Table.Th>Owner</Table.Th>}
              <Table.Th>Used / expires</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {keys.map((k) => (
              <Table.Tr key={k.id} data-key-id={k.id}>
                <Table.Td style={WRAP}>
                  <Text size="sm" fw={500} style={WRAP}>
                    {k.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={WRAP}>
                    {k.type} · <Code>{k.keyPrefix}…</Code>
                  </Text>
                </Table.Td>
                <Table.Td>{k.branchId === null ? '—' : nameOf(lookups.data?.branches, k.branchId)}</Table.Td>
                <Table.Td style={WRAP}>{originsText(k)}</Table.Td>
                {asAdmin && <Table.Td style={WRAP}>{'ownerEmail' in k ? atBreak(k.ownerEmail) : ''}</Table.Td>}
                <Table.Td>
                  <Text size="xs">Used {k.lastUsedAt ? when(k.lastUsedAt) : 'never'}</Text>
                  <Text size="xs">Expires {k.expiresAt ? when(k.expiresAt) : 'never'}</Text>
                </Table.Td>
                <Table.Td>{state(k)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    {k.isActive && !k.replacedBy && mayRoll(me.data, k) && (
                      <Button size="xs" variant="subtle" onClick={() => setRolling(k)} aria-label={`Roll ${k.name}`}>
                        Roll
                      </Button>
                    )}
                    {!asAdmin && k.isActive && k.type === 'public' && (
                      <Button
                        size="xs"
                        variant="subtle"
                        onClick={() => editOrigins(k)}
                        aria-label={`Origins of ${k.name}`}
                      >
                        Origins
                      </Button>
                    )}
                    {k.isActive && (
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() => confirm(k)}
                        aria-label={`Revoke ${k.name}`}
                      >
                        Revoke
                      </Button>
                    )}
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
