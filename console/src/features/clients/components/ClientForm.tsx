import { Button, Group, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import type { AdminClient } from '../../../lib/api/types';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { useUpdateClient } from '../hooks/use-clients';

/** A client's name, email and phone, corrected when the client asks. */
export function ClientForm({ client, onSaved }: { client: AdminClient; onSaved: () => void }) {
  const form = useForm({
    initialValues: { firstName: client.firstName, lastName: client.lastName, email: client.email, phone: client.phone },
  });
  useUnsavedChanges(form.isDirty(), `Client ${client.firstName} ${client.lastName}`);
  const save = useUpdateClient(client.id);
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v, { onSuccess: onSaved, onError: fieldErrorsTo(form) }))}>
      <TextInput label="First name" required {...form.getInputProps('firstName')} />
      <TextInput label="Last name" required {...form.getInputProps('lastName')} />
      <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
      <TextInput label="Phone" description="+ then 7 to 15 digits" required {...form.getInputProps('phone')} />
      <Group mt="md">
        <Button type="submit" loading={save.isPending}>
          Save
        </Button>
      </Group>
    </form>
  );
}
