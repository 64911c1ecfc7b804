import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { ApiError } from '../../../lib/api/errors';
import type { ApiKey, RolledApiKey } from '../../../lib/api/types';
import { when } from '../../../lib/format';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { RawKeyOnce } from './CreateKeyForm';
import { useRoll } from '../hooks/use-keys';

/** Rolls a key: the new raw key is shown once; the old key keeps working until the chosen time (default 24 hours). */
export function RollKeyForm({
  apiKey,
  asAdmin,
  onRolled,
  onDone,
}: {
  apiKey: ApiKey;
  asAdmin: boolean;
  onRolled: () => void;
  onDone: () => void;
}) {
  const roll = useRoll(asAdmin);
  const [until, setUntil] = useState('');
  const [rolled, setRolled] = useState<RolledApiKey | null>(null);
  useUnsavedChanges(rolled === null && until !== '', `Roll of “${apiKey.name}”: when the old key stops`);
  if (rolled) {
    return (
      <RawKeyOnce rawKey={rolled.rawKey} onDone={onDone}>
        <Text size="sm">
          The old key ({apiKey.keyPrefix}…) keeps working until {when(rolled.previousKey.expiresAt!)}.
        </Text>
      </RawKeyOnce>
    );
  }
  // The refusals the query client leaves to the form (useRoll's meta); the others are its notices already.
  const error =
    roll.error instanceof ApiError && roll.error.status === 400 && Object.keys(roll.error.fieldErrors).length > 0
      ? roll.error.message
      : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        roll.mutate(
          { id: apiKey.id, ...(until ? { expiresAt: new Date(until).toISOString() } : {}) },
          {
            onSuccess: (k) => {
              setRolled(k);
              onRolled();
            },
          },
        );
      }}
    >
      <Stack gap="xs">
        <Text size="sm">
          A new key of the same type and scope replaces “{apiKey.name}”. The old key keeps working until the time below,
          so the partner can switch without an outage.
        </Text>
        <TextInput
          label="Old key works until"
          description="Empty: 24 hours from now. At most 7 days."
          type="datetime-local"
          value={until}
          onChange={(e) => setUntil(e.currentTarget.value)}
          error={error}
        />
        <Group mt="sm">
          <Button type="submit" loading={roll.isPending}>
            Roll key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
