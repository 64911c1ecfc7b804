import { Button, Group, Paper, Select, Table, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Body } from '../../api/types';
import { hasRole, useMe } from '../../auth/use-me';
import { branchOptions, currencyOptions, exchangeOptions, nameOf, useLookups } from '../../components/lookups';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useUnsavedChanges } from '../../components/unsaved-guard';
import { fieldErrorsTo, useSave } from '../../components/use-save';
import { KINDS, PaymentMethodRow } from './PaymentMethodRow';

/** How clients pay and get paid: branch-wide or at one exchange, for any currency or one. */
export function PaymentMethodsPage() {
  const lookups = useLookups();
  const methods = useQuery({ queryKey: ['payment-methods'], queryFn: () => unwrap(api.GET('/api/v1/admin/payment-methods', { params: { query: { limit: 100 } } })) });
  const currency = (id: number | null) => (id === null ? 'Any' : lookups.data?.currencies.find((c) => c.id === id)?.code ?? `#${id}`);
  return (
    <>
      <PageHeader title="Payment methods" description="Orders name these as how the client pays and how it is paid." />
      <QueryState query={methods}>
        {(data) => (
          <Table.ScrollContainer minWidth={760}>
            <Table aria-label="Payment methods">
              <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Kind</Table.Th><Table.Th>Exchange</Table.Th><Table.Th>Currency</Table.Th><Table.Th>Active</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr></Table.Thead>
              <Table.Tbody>
                {data.data.map((m) => (
                  <PaymentMethodRow key={m.id} method={m} currency={currency(m.currencyId)}
                    where={m.exchangeId === null ? 'Every exchange' : nameOf(lookups.data?.exchanges, m.exchangeId)} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <NewPaymentMethod />
    </>
  );
}

function NewPaymentMethod() {
  const me = useMe();
  const lookups = useLookups();
  // Null, not '': a Select shown '' keeps showing the label it had, so a reset form would look filled in.
  const form = useForm({ initialValues: { branchId: '', name: '', kind: 'cash', exchangeId: null as string | null, currencyId: null as string | null } });
  const save = useSave((body: Body<'/api/v1/admin/payment-methods', 'post'>) => unwrap(api.POST('/api/v1/admin/payment-methods', { body })),
    [['payment-methods'], ['lookups']], (m) => `${m.name}: created`);
  useUnsavedChanges(form.isDirty(), 'New payment method');
  const submit = form.onSubmit((v) => save.mutate({
    name: v.name, kind: v.kind as 'cash',
    ...(v.branchId ? { branchId: Number(v.branchId) } : {}),
    ...(v.exchangeId ? { exchangeId: Number(v.exchangeId) } : {}),
    ...(v.currencyId ? { currencyId: Number(v.currencyId) } : {}),
  }, { onSuccess: () => form.reset(), onError: fieldErrorsTo(form) }));
  const branch = form.values.branchId;
  const exchanges = exchangeOptions(lookups.data).filter((o) => !branch || lookups.data?.exchanges.find((e) => String(e.id) === o.value)?.branchId === Number(branch));
  return (
    <Paper withBorder p="md" mt="md" component="form" onSubmit={submit} aria-labelledby="new-method">
      <Title order={2} size="h5" id="new-method" mb="xs">New payment method</Title>
      <Group align="flex-start" wrap="wrap">
        {hasRole(me.data, 'superadmin') && (
          // An exchange of the branch left before stays chosen otherwise, and the API refuses the pair.
          <Select label="Branch" required data={branchOptions(lookups.data)} w={200} {...form.getInputProps('branchId')}
            onChange={(v: string | null) => { form.setFieldValue('branchId', v ?? ''); form.setFieldValue('exchangeId', null); }} />
        )}
        <TextInput label="Name" required w={220} {...form.getInputProps('name')} />
        <Select label="Kind" data={KINDS} w={160} allowDeselect={false} {...form.getInputProps('kind')} />
        <Select label="Only at exchange" placeholder="Every exchange" clearable data={exchanges} w={220} {...form.getInputProps('exchangeId')} />
        <Select label="Only for currency" placeholder="Any currency" clearable searchable data={currencyOptions(lookups.data)} w={200} {...form.getInputProps('currencyId')} />
        <Button type="submit" mt={25} loading={save.isPending}>Add</Button>
      </Group>
    </Paper>
  );
}
