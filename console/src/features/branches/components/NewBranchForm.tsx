import { Button, Checkbox, Group, Paper, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import type { NewBranch } from '../api/branches';
import { useCreateBranch } from '../hooks/use-branches';

export function NewBranchForm() {
  const form = useForm<NewBranch>({ initialValues: { name: '', isSandbox: false } });
  useUnsavedChanges(form.isDirty(), 'New branch');
  const save = useCreateBranch();
  return (
    <Paper
      withBorder
      p="md"
      mt="md"
      component="form"
      aria-labelledby="new-branch"
      onSubmit={form.onSubmit((v) => save.mutate(v, { onSuccess: () => form.reset(), onError: fieldErrorsTo(form) }))}
    >
      <Title order={2} size="h5" id="new-branch" mb="xs">
        New branch
      </Title>
      <Group align="flex-start">
        <TextInput label="Name" required w={320} {...form.getInputProps('name')} />
        <Checkbox label="Sandbox" mt={32} {...form.getInputProps('isSandbox', { type: 'checkbox' })} />
        <Button type="submit" mt={25} loading={save.isPending}>
          Add
        </Button>
      </Group>
    </Paper>
  );
}
