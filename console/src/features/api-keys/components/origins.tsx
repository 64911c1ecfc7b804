import { Button, Group, Stack, Text, Textarea, type TextareaProps } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import type { ApiKey } from '../../../lib/api/types';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { useSaveOrigins } from '../hooks/use-keys';

/** One origin a line (or separated by commas or spaces), as the API takes them: an array. */
export const originLines = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter((o) => o.length > 0);

export const ORIGINS_HELP =
  'Web pages of these origins only (https://shop.example, one a line) may use the key; empty: any. ' +
  'A guard against copying the key onto other sites, not a secret: the key is visible in the page.';

/** One field holds the whole list: the API's error about one of its items has no field of its own, and is a notice. */
export const ORIGIN_LABELS = { 'allowedOrigins.*': 'One of the allowed origins' };

/** The allowed-origins field of a public key, for the create form and the edit dialog alike. */
export function OriginsInput(props: TextareaProps) {
  return (
    <Textarea
      label="Allowed origins (optional)"
      description={ORIGINS_HELP}
      autosize
      minRows={2}
      placeholder="https://shop.example"
      {...props}
    />
  );
}

function EditOrigins({ apiKey }: { apiKey: ApiKey }) {
  const form = useForm({ initialValues: { allowedOrigins: apiKey.allowedOrigins.join('\n') } });
  useUnsavedChanges(form.isDirty(), `Allowed origins of “${apiKey.name}”`);
  const save = useSaveOrigins(apiKey);
  const submit = form.onSubmit((v) =>
    save.mutate(originLines(v.allowedOrigins), {
      onSuccess: () => modals.closeAll(),
      onError: fieldErrorsTo(form, { labels: ORIGIN_LABELS }),
    }),
  );
  return (
    <form onSubmit={submit}>
      <Stack gap="xs">
        <OriginsInput {...form.getInputProps('allowedOrigins')} />
        <Text size="xs" c="dimmed">
          A change applies at once, on every server.
        </Text>
        <Group mt="sm">
          <Button type="submit" loading={save.isPending}>
            Save origins
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export const editOrigins = (apiKey: ApiKey) =>
  modals.open({ title: `Allowed origins of “${apiKey.name}”`, size: 'lg', children: <EditOrigins apiKey={apiKey} /> });

/** What the table shows: the list, or that any origin may use the key. */
export function originsText(k: ApiKey): string {
  if (k.type !== 'public') return '—';
  return k.allowedOrigins.length === 0 ? 'any' : k.allowedOrigins.join(', ');
}
