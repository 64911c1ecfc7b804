import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { hasRole, useMe } from '../../../lib/auth/me';
import { showDone } from '../../../lib/notify';
import { branchOptions, useLookups } from '../../lookups';
import type { RateSource } from '../api/rate-sources';
import { useCreateRateSource, useUpdateRateSource } from '../hooks/use-rate-sources';
import { KINDS } from './source-state';

interface Values {
  branchId: string | null;
  name: string;
  kind: RateSource['kind'] | null;
  url: string;
  intervalSeconds: string;
  maxAgeSeconds: string;
}

const valuesOf = (s?: RateSource): Values => ({
  branchId: s ? String(s.branchId) : null,
  name: s?.name ?? '',
  kind: s?.kind ?? null,
  url: s?.url ?? '',
  intervalSeconds: s ? String(s.intervalSeconds) : '60',
  maxAgeSeconds: s ? String(s.maxAgeSeconds) : '300',
});

const whole = (label: string) => (v: string) =>
  /^\d+$/.test(v.trim()) ? null : `${label} must be a whole number of seconds`;

/**
 * A new source, or one changed (`source`): the API's refusal of a field (a URL at a private address, a name taken)
 * shows under it. An edit sends only what changed.
 */
export function RateSourceForm({ source, onDone }: { source?: RateSource; onDone?: () => void }) {
  const me = useMe().data;
  const lookups = useLookups();
  const create = useCreateRateSource();
  const update = useUpdateRateSource(source?.id ?? 0);
  const superadmin = hasRole(me, 'superadmin');
  const form = useForm<Values>({
    initialValues: valuesOf(source),
    validate: {
      intervalSeconds: whole('The interval'),
      maxAgeSeconds: whole('The max age'),
      branchId: (v) => (superadmin && !source && !v ? 'Choose the branch' : null),
      kind: (v) => (v ? null : 'Choose the format'),
    },
  });
  useUnsavedChanges(form.isDirty(), source ? `Rate source ${source.name}` : 'New rate source');
  const onError = fieldErrorsTo(form);
  const kind = KINDS.find((k) => k.value === form.values.kind);

  const submit = form.onSubmit((v) => {
    const body = {
      name: v.name.trim(),
      kind: v.kind!,
      url: v.url.trim(),
      intervalSeconds: Number(v.intervalSeconds),
      maxAgeSeconds: Number(v.maxAgeSeconds),
    };
    if (!source) {
      create.mutate(
        { ...body, ...(superadmin ? { branchId: Number(v.branchId) } : {}) },
        {
          onSuccess: (saved) => {
            form.reset();
            showDone(`Rate source ${saved.name} added: it is read at once`);
            onDone?.();
          },
          onError,
        },
      );
      return;
    }
    const was = valuesOf(source);
    const change = Object.fromEntries(
      (Object.keys(body) as (keyof typeof body)[])
        .filter((k) => String(body[k]) !== String(was[k]))
        .map((k) => [k, body[k]]),
    );
    if (Object.keys(change).length === 0) return onDone?.();
    update.mutate(change, {
      onSuccess: (saved) => {
        form.resetDirty();
        showDone(`Rate source ${saved.name} saved`);
        onDone?.();
      },
      onError,
    });
  });

  return (
    <form onSubmit={submit} aria-label={source ? `Change ${source.name}` : 'New rate source'}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {superadmin && !source && (
          <Select label="Branch" data={branchOptions(lookups.data)} required {...form.getInputProps('branchId')} />
        )}
        <TextInput label="Name" required maxLength={200} {...form.getInputProps('name')} />
        <Select
          label="Format"
          required
          data={KINDS.map((k) => ({ value: k.value, label: k.label }))}
          description={kind?.description ?? 'What the URL answers: ECB, Bank of Russia, Binance or our JSON'}
          allowDeselect={false}
          {...form.getInputProps('kind')}
        />
        <TextInput
          label="URL"
          required
          type="url"
          placeholder="https://…"
          description="http or https; an internal address is refused, as for webhooks"
          {...form.getInputProps('url')}
        />
        <TextInput
          label="Read every (seconds)"
          required
          inputMode="numeric"
          description="1 to 86400"
          {...form.getInputProps('intervalSeconds')}
        />
        <TextInput
          label="Stale after (seconds)"
          required
          inputMode="numeric"
          description="Without a good read for this long, its offers are suspended"
          {...form.getInputProps('maxAgeSeconds')}
        />
      </SimpleGrid>
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={create.isPending || update.isPending}>
          {source ? 'Save' : 'Add source'}
        </Button>
      </Group>
    </form>
  );
}
