import { Alert, Button, Code, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import type { CreatedApiKey } from '../../../lib/api/types';
import { hasRole, useMe } from '../../../lib/auth/me';
import { CopyHelp, CopyValueButton, useCopy } from '../../../components/copy';
import { branchOptions, useLookups } from '../../lookups';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { useCreateKey } from '../hooks/use-keys';
import { ORIGIN_LABELS, originLines, OriginsInput } from './origins';

type Fields = { name: string; type: string; branchId: string; expiresAt: string; allowedOrigins: string };

/** A raw key, shown this once with a copy button. */
export function RawKeyOnce({
  rawKey,
  onDone,
  children,
}: {
  rawKey: string;
  onDone: () => void;
  children?: React.ReactNode;
}) {
  const copier = useCopy(rawKey);
  // Leaving loses the key for good: it is never shown again.
  useUnsavedChanges(true, 'The new key, shown only this once');
  return (
    <Stack>
      <Alert color="yellow" title="Copy the key now">
        It is shown only this once: the service keeps only a hash of it.
      </Alert>
      {children}
      <Code block data-testid="raw-key" ref={copier.field as React.Ref<HTMLPreElement>}>
        {rawKey}
      </Code>
      <CopyHelp copier={copier} />
      <Group>
        <CopyValueButton copier={copier} label="Copy key" />
        <Button variant="default" onClick={onDone}>
          I have stored it
        </Button>
      </Group>
    </Stack>
  );
}

/** A new key; its raw value is shown here once, with a copy button, and never again. */
export function CreateKeyForm({ onCreated, onDone }: { onCreated: () => void; onDone: () => void }) {
  const me = useMe();
  const lookups = useLookups();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const superadmin = hasRole(me.data, 'superadmin');
  const form = useForm<Fields>({
    initialValues: { name: '', type: 'personal', branchId: '', expiresAt: '', allowedOrigins: '' },
  });
  useUnsavedChanges(created === null && form.isDirty(), 'New API key');
  const save = useCreateKey();

  if (created) return <RawKeyOnce rawKey={created.rawKey} onDone={onDone} />;
  const submit = form.onSubmit((v) =>
    save.mutate(
      {
        name: v.name,
        type: v.type as 'personal',
        ...(v.type !== 'personal' && v.branchId ? { branchId: Number(v.branchId) } : {}),
        ...(v.expiresAt ? { expiresAt: new Date(v.expiresAt).toISOString() } : {}),
        ...(v.type === 'public' && originLines(v.allowedOrigins).length > 0
          ? { allowedOrigins: originLines(v.allowedOrigins) }
          : {}),
      },
      {
        onSuccess: (k) => {
          setCreated(k);
          onCreated();
        },
        onError: fieldErrorsTo(form, { labels: ORIGIN_LABELS }),
      },
    ),
  );
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <TextInput
          label="Name"
          description="Who or what uses it, e.g. the partner's app"
          required
          {...form.getInputProps('name')}
        />
        <Select
          label="Type"
          allowDeselect={false}
          {...form.getInputProps('type')}
          data={[
            { value: 'personal', label: 'Personal: acts as you, with your exchanges and permissions' },
            ...(superadmin
              ? [
                  { value: 'branch', label: 'Branch: every exchange of a branch' },
                  { value: 'public', label: 'Public: read-only catalogue of a branch' },
                ]
              : []),
          ]}
        />
        {form.values.type !== 'personal' && (
          <Select label="Branch" required data={branchOptions(lookups.data)} {...form.getInputProps('branchId')} />
        )}
        {form.values.type === 'public' && <OriginsInput {...form.getInputProps('allowedOrigins')} />}
        <TextInput label="Expires (optional)" type="datetime-local" {...form.getInputProps('expiresAt')} />
        {!superadmin && (
          <Text size="xs" c="dimmed">
            Branch and public keys are created by a superadmin.
          </Text>
        )}
        <Group mt="sm">
          <Button type="submit" loading={save.isPending}>
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
