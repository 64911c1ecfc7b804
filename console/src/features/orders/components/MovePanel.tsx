import { Button, Group, Paper, Text, Textarea, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useState } from 'react';
import type { OrderDetail } from '../../../lib/api/types';
import { showDone } from '../../../lib/notify';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { useLookups } from '../../lookups';
import { MOVE_LABEL, STATUS_LABEL } from './statuses';
import { useMoveOrder } from '../hooks/use-order';

export const ORDER_STATUS_ID = 'order-status';

/**
 * Only the moves the service's transition table allows from the order's status (it comes with the lookups, so
 * the console never keeps a copy), each one click, with an optional comment.
 */
export function MovePanel({ order, canWrite }: { order: OrderDetail; canWrite: boolean }) {
  const [comment, setComment] = useState('');
  const move = useMoveOrder(order.id);
  useUnsavedChanges(comment.trim() !== '', `Comment on order #${order.id}`);
  const lookups = useLookups();
  if (!lookups.data) return null;
  const moves = lookups.data.orderMoves[order.status];
  if (moves.length === 0)
    return (
      <Paper withBorder p="md">
        <Text c="dimmed">This order is {STATUS_LABEL[order.status].toLowerCase()}: it cannot move any more.</Text>
      </Paper>
    );
  if (!canWrite)
    return (
      <Paper withBorder p="md">
        <Text c="dimmed">You may read orders but not move them (orders:write).</Text>
      </Paper>
    );

  const go = (status: (typeof moves)[number]) =>
    move.mutate(
      { status, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      {
        onSuccess: () => {
          setComment('');
          showDone(`Order #${order.id}: ${STATUS_LABEL[status]}`);
          document.getElementById(ORDER_STATUS_ID)?.focus();
        },
      },
    );
  const cancel = () =>
    modals.openConfirmModal({
      title: `Cancel order #${order.id}?`,
      children: (
        <Text size="sm">The partner and its client are told at once. A cancelled order cannot be reopened.</Text>
      ),
      labels: { confirm: 'Cancel the order', cancel: 'Keep it' },
      confirmProps: { color: 'red' },
      onConfirm: () => go('CANCEL'),
    });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="moves-title">
      <Title order={2} size="h5" id="moves-title" mb="xs">
        Next step
      </Title>
      <Textarea
        label="Comment (optional)"
        description="Kept in the status history"
        value={comment}
        onChange={(e) => setComment(e.currentTarget.value)}
        maxLength={2000}
        autosize
        minRows={1}
        mb="sm"
      />
      <Group gap="xs">
        {moves
          .filter((s) => s !== 'CANCEL')
          .map((s) => (
            <Button
              key={s}
              onClick={() => go(s)}
              loading={move.isPending && move.variables?.status === s}
              disabled={move.isPending}
              data-move={s}
            >
              {MOVE_LABEL[s] ?? STATUS_LABEL[s]}
            </Button>
          ))}
        {moves.includes('CANCEL') && (
          <Button color="red" variant="light" onClick={cancel} disabled={move.isPending} data-move="CANCEL">
            Cancel order
          </Button>
        )}
      </Group>
    </Paper>
  );
}
