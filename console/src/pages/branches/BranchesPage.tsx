import { Button, Group, Paper, Table, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { when } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { fieldErrorsTo, useSave } from '../../components/use-save';

/** The network's branches (superadmin): each has its own exchanges, staff, clients, keys and webhooks. */
export function BranchesPage() {
  const branches = useQuery({ queryKey: ['branches'], queryFn: () => unwrap(api.GET('/api/v1/admin/branches', { params: { query: { limit: 100 } } })) });
  const form = useForm({ initialValues: { name: '' } });
  const save = useSave((name: string) => unwrap(api.POST('/api/v1/admin/branches', { body: { name } })), [['branches'], ['lookups']], (b) => `${b.name}: created`);
  return (
    <>
      <PageHeader title="Branches" />
      <QueryState query={branches}>
        {(data) => (
          <Table aria-label="Branches">
            <Table.Thead><Table.Tr><Table.Th>Id</Table.Th><Table.Th>Name</Table.Th><Table.Th>Created</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>{data.data.map((b) => <Table.Tr key={b.id}><Table.Td>{b.id}</Table.Td><Table.Td>{b.name}</Table.Td><Table.Td>{when(b.createdAt)}</Table.Td></Table.Tr>)}</Table.Tbody>
          </Table>
        )}
      </QueryState>
      <Paper withBorder p="md" mt="md" component="form" aria-labelledby="new-branch"
        onSubmit={form.onSubmit((v) => save.mutate(v.name, { onSuccess: () => form.reset(), onError: fieldErrorsTo(form) }))}>
        <Title order={2} size="h5" id="new-branch" mb="xs">New branch</Title>
        <Group align="flex-start"><TextInput label="Name" required w={320} {...form.getInputProps('name')} /><Button type="submit" mt={25} loading={save.isPending}>Add</Button></Group>
      </Paper>
    </>
  );
}
