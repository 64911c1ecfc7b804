import { Button, Group, Paper, Select, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { hasRole, useMe } from '../../../lib/auth/me';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { branchOptions, currencyOptions, exchangeOptions, useLookups } from '../../lookups';
import { useCreatePaymentMethod } from '../hooks/use-payment-methods';
import { KINDS } from './PaymentMethodRow';

/** A new method: branch-wide or at one exchange, for any currency or one. */
export function NewPaymentMethodForm() {
  const me = useMe();
  const lookups = useLookups();
  // Null, not '': a Select shown '' keeps showing the label it had, so a reset form would look filled in.
  const form = useForm({
    initialValues: {
      branchId: '',
      name: '',
      kind: 'cash',
      exchangeId: null as string | null,
      currencyId: null as string | null,
    },
  });
  const save = useCreatePaymentMethod();
  useUnsavedChanges(form.isDirty(), 'New payment method');
  const submit = form.onSubmit((v) =>
    save.mutate(
      {
        name: v.name,
        kind: v.kind as 'cash',
        ...(v.branchId ? { branchId: Number(v.branchId) } : {}),
        ...(v.exchangeId ? { exchangeId: Number(v.exchangeId) } : {}),
        ...(v.currencyId ? { currencyId: Number(v.currencyId) } : {}),
      },
      { onSuccess: () => form.reset(), onError: fieldErrorsTo(form) },
    ),
  );
  const branch = form.values.branchId;
  const exchanges = exchangeOptions(lookups.data).filter(
    (o) => !branch || lookups.data?.exchanges.find((e) => String(e.id) === o.value)?.branchId === Number(branch),
  );
  return (
    <Paper withBorder p="md" mt="md" component="form" onSubmit={submit} aria-labelledby="new-method">
      <Title order={2} size="h5" id="new-method" mb="xs">
        New payment method
      </Title>
      <Group align="flex-start" wrap="wrap">
        {hasRole(me.data, 'superadmin') && (
          // An exchange of the branch left before stays chosen otherwise, and the API refuses the pair.
          <Select
            label="Branch"
            required
            data={branchOptions(lookups.data)}
            w={200}
            {...form.getInputProps('branchId')}
            onChange={(v: string | null) => {
              form.setFieldValue('branchId', v ?? '');
              form.setFieldValue('exchangeId', null);
            }}
          />
        )}
        <TextInput label="Name" required w={220} {...form.getInputProps('name')} />
        <Select label="Kind" data={KINDS} w={160} allowDeselect={false} {...form.getInputProps('kind')} />
        <Select
          label="Only at exchange"
          placeholder="Every exchange"
          clearable
          data={exchanges}
          w={220}
          {...form.getInputProps('exchangeId')}
        />
        <Select
          label="Only for currency"
          placeholder="Any currency"
          clearable
          searchable
          data={currencyOptions(lookups.data)}
          w={200}
          {...form.getInputProps('currencyId')}
        />
        <Button type="submit" mt={25} loading={save.isPending}>
          Add
        </Button>
      </Group>
    </Paper>
  );
}
