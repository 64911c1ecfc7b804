import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { AdminWebhook } from '../../api/types';
import { showDone } from '../../components/notify';
import { useReactivate, useRotate } from './use-webhooks';

/** Reactivation after the receiver is fixed, and rotation of a leaked secret (the new one shown once). */
export function WebhookActions({ hook }: { hook: AdminWebhook }) {
  const reactivate = useReactivate(hook.id);
  const rotate = useRotate(hook.id);
  const confirmRotate = () => modals.openConfirmModal({
    title: 'Rotate the signing secret?',
    children: <Text size="sm">The old secret stops signing at once: the partner must use the new one to verify deliveries from now on.</Text>,
    labels: { confirm: 'Rotate', cancel: 'Keep the secret' },
    confirmProps: { color: 'orange' },
    onConfirm: () => rotate.mutate(),
  });
  return (
    <Group gap="xs">
      {!hook.isActive && (
        <Button onClick={() => reactivate.mutate(undefined, { onSuccess: () => showDone('Webhook active again') })} loading={reactivate.isPending}>Reactivate</Button>
      )}
      <Button variant="light" color="orange" onClick={confirmRotate} loading={rotate.isPending}>Rotate secret</Button>
      <Modal opened={rotate.isSuccess} onClose={() => rotate.reset()} title="New signing secret" closeOnClickOutside={false}>
        {rotate.data && (
          <Stack>
            <Alert color="yellow">Give it to the partner now: it is shown only this once.</Alert>
            <Code block data-testid="new-secret">{rotate.data.secretKey}</Code>
            <Group>
              <CopyButton value={rotate.data.secretKey}>{({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy secret'}</Button>}</CopyButton>
              <Button variant="default" onClick={() => rotate.reset()}>Done</Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Group>
  );
}
