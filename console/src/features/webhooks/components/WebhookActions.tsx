import { Alert, Button, Code, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { AdminWebhook } from '../../../lib/api/types';
import { CopyHelp, CopyValueButton, useCopy } from '../../../components/copy';
import { when } from '../../../lib/format';
import { showDone } from '../../../lib/notify';
import { useDeactivate, useDeleteWebhook, useReactivate, useRotate } from '../hooks/use-webhooks';

/** How long the replaced secret keeps signing beside the new one: the partner's receiver switches in that time. */
const OVERLAPS = [
  { value: '0', label: 'Stop it at once (a leaked secret)' },
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '24 hours' },
  { value: '604800', label: '7 days' },
];

/**
 * Reactivation after the receiver is fixed, rotation of the secret (the new one shown once) with an overlap, and
 * stopping a webhook (e.g. of a partner whose key was revoked): deactivate, or delete after a confirmation.
 */
export function WebhookActions({ hook }: { hook: AdminWebhook }) {
  const reactivate = useReactivate(hook.id);
  const deactivate = useDeactivate(hook.id);
  const remove = useDeleteWebhook(hook.id);
  const rotate = useRotate(hook.id);
  const navigate = useNavigate();
  const confirmDelete = () =>
    modals.openConfirmModal({
      title: 'Delete this webhook?',
      children: (
        <Text size="sm">
          Deliveries to <Code>{hook.url}</Code> stop at once and its pending ones are abandoned. Its delivery log goes
          with it. This cannot be undone.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(undefined, {
          onSuccess: () => {
            showDone(`Webhook deleted: ${hook.url}`);
            void navigate('/webhooks', { replace: true });
          },
        }),
    });
  const [asking, setAsking] = useState(false);
  const [overlap, setOverlap] = useState('86400');
  return (
    <Group gap="xs">
      {!hook.isActive && (
        <Button
          onClick={() => reactivate.mutate(undefined, { onSuccess: () => showDone('Webhook active again') })}
          loading={reactivate.isPending}
        >
          Reactivate
        </Button>
      )}
      {hook.isActive && (
        <Button
          variant="light"
          color="gray"
          onClick={() =>
            deactivate.mutate(undefined, { onSuccess: () => showDone('Webhook deactivated: no more deliveries') })
          }
          loading={deactivate.isPending}
        >
          Deactivate
        </Button>
      )}
      <Button variant="light" color="orange" onClick={() => setAsking(true)} loading={rotate.isPending}>
        Rotate secret
      </Button>
      <Button variant="light" color="red" onClick={confirmDelete} loading={remove.isPending}>
        Delete
      </Button>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Rotate the signing secret?">
        <Stack>
          <Text size="sm">
            Deliveries are signed with the new secret from now on. During the overlap they also carry a signature made
            with the old one, so the partner's receiver keeps verifying while it switches.
          </Text>
          <Select
            label="Keep the old secret signing for"
            data={OVERLAPS}
            value={overlap}
            onChange={(v) => setOverlap(v ?? '86400')}
            allowDeselect={false}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              Keep the secret
            </Button>
            <Button
              color="orange"
              onClick={() => {
                setAsking(false);
                rotate.mutate(Number(overlap));
              }}
            >
              Rotate
            </Button>
          </Group>
        </Stack>
      </Modal>
      {/* The secret is shown once: only "Done" closes this, never a stray Escape. */}
      <Modal
        opened={rotate.isSuccess}
        onClose={() => rotate.reset()}
        title="New signing secret"
        closeOnClickOutside={false}
        closeOnEscape={false}
        withCloseButton={false}
      >
        {rotate.data && (
          <NewSecret
            secret={rotate.data.secretKey}
            previousExpiresAt={rotate.data.previousSecretExpiresAt}
            onDone={() => rotate.reset()}
          />
        )}
      </Modal>
    </Group>
  );
}

function NewSecret({
  secret,
  previousExpiresAt,
  onDone,
}: {
  secret: string;
  previousExpiresAt: string | null;
  onDone: () => void;
}) {
  const copier = useCopy(secret);
  return (
    <Stack>
      <Alert color="yellow">Give it to the partner now: it is shown only this once.</Alert>
      <Code block data-testid="new-secret" ref={copier.field as React.Ref<HTMLPreElement>}>
        {secret}
      </Code>
      <CopyHelp copier={copier} />
      <Text size="sm">
        {previousExpiresAt
          ? `The old secret keeps signing until ${when(previousExpiresAt)}.`
          : 'The old secret no longer signs.'}
      </Text>
      <Group>
        <CopyValueButton copier={copier} label="Copy secret" />
        <Button variant="default" onClick={onDone}>
          Done
        </Button>
      </Group>
    </Stack>
  );
}
