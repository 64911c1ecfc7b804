import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { ApiKey, RolledApiKey } from '../../api/types';
import { when } from '../../components/format';
import { RawKeyOnce } from './CreateKeyForm';
import { useRoll } from './use-keys';

/** Rolls a key: the new raw key is shown once; the old key keeps working until the chosen time (default 24 hours). */
export function RollKeyForm({ apiKey, asAdmin, onDone }: { apiKey: ApiKey; asAdmin: boolean; onDone: () => void }) {
  const roll = useRoll(asAdmin);
  const [until, setUntil] = useState('');
  const [rolled, setRolled] = useState<RolledApiKey | null>(null);
  if (rolled) {
    return (
      <RawKeyOnce rawKey={rolled.rawKey} onDone={onDone}>
        <Text size="sm">The old key ({apiKey.keyPrefix}…) keeps working until {when(rolled.previousKey.expiresAt!)}.</Text>
      </RawKeyOnce>
    );
  }
  const error = roll.error instanceof Error ? roll.error.message : undefined;
  return (
    <form onSubmit={(e) => {
      e.preventDefault();
      roll.mutate({ id: apiKey.id, ...(until ? { expiresAt: new Date(until).toISOString() } : {}) }, { onSuccess: setRolled });
    }}>
      <Stack gap="xs">
        <Text size="sm">A new key of the same type and scope replaces “{apiKey.name}”. The old key keeps working until the time below, so the partner can switch without an outage.</Text>
        <TextInput label="Old key works until" description="Empty: 24 hours from now. At most 7 days." type="datetime-local" value={until} onChange={(e) => setUntil(e.currentTarget.value)} error={error} />
        <Group mt="sm"><Button type="submit" loading={roll.isPending}>Roll key</Button></Group>
      </Stack>
    </form>
  );
}
