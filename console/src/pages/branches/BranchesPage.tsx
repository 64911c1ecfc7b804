import { Button, Checkbox, Group, Paper, Switch, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { when } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useUnsavedChanges } from '../../components/unsaved-guard';
import { fieldErrorsTo, useSave } from '../../components/use-save';

type NewBranch = { name: string; isSandbox: boolean };

/**
 * The network's branches (superadmin): each has its own exchanges, staff, clients, keys and webhooks. A sandbox
 * branch lets partners move their own orders to test their webhook handling (docs/integration.md).
 */
export function BranchesPage() {
  const branches = useQuery({ queryKey: ['branches'], queryFn: () => unwrap(api.GET('/api/v1/admin/branches', { params: { query: { limit: 100 } } })) });
  const form = useForm<NewBranch>({ initialValues: { name: '', isSandbox: false } });
  useUnsavedChanges(form.isDirty(), 'New branch');
  const save = useSave((body: NewBranch) => unwrap(api.POST('/api/v1/admin/branches', { body })), [['branches'], ['lookups']], (b) => `${b.name}: created`);
  const sandbox = useSave(
    ({ id, isSandbox }: { id: number; isSandbox: boolean }) => unwrap(api.PATCH('/api/v1/admin/branches/{id}', { params: { path: { id } }, body: { isSandbox } })),
    [['branches']], (b) => `${b.name}: ${b.isSandbox ? 'now a sandbox' : 'no longer a sandbox'}`,
  );
  return (
    <>
      <PageHeader title="Branches" />
      <QueryState query={branches}>
        {(data) => (
          <Table aria-label="Branches">
            <Table.Thead><Table.Tr><Table.Th>Id</Table.Th><Table.Th>Name</Table.Th><Table.Th>Sandbox</Table.Th><Table.Th>Created</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>{data.data.map((b) => (
              <Table.Tr key={b.id}>
                <Table.Td>{b.id}</Table.Td><Table.Td>{b.name}</Table.Td>
                <Table.Td>
                  <Switch aria-label={`${b.name} is a sandbox`} checked={b.isSandbox} disabled={sandbox.isPending}
                    onChange={(e) => sandbox.mutate({ id: b.id, isSandbox: e.currentTarget.checked })} />
                </Table.Td>
                <Table.Td>{when(b.createdAt)}</Table.Td>
              </Table.Tr>
            ))}</Table.Tbody>
          </Table>
        )}
      </QueryState>
      <Paper withBorder p="md" mt="md" component="form" aria-labelledby="new-branch"
        onSubmit={form.onSubmit((v) => save.mutate(v, { onSuccess: () => form.reset(), onError: fieldErrorsTo(form) }))}>
        <Title order={2} size="h5" id="new-branch" mb="xs">New branch</Title>
        <Group align="flex-start">
          <TextInput label="Name" required w={320} {...form.getInputProps('name')} />
          <Checkbox label="Sandbox" mt={32} {...form.getInputProps('isSandbox', { type: 'checkbox' })} />
          <Button type="submit" mt={25} loading={save.isPending}>Add</Button>
        </Group>
      </Paper>
    </>
  );
}
