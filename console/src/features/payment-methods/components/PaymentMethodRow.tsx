import { Button, Select, Switch, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import type { PaymentMethod } from '../../../lib/api/types';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import type { PaymentMethodChange } from '../api/payment-methods';
import { useUpdatePaymentMethod } from '../hooks/use-payment-methods';

/** The kinds the API knows, in words: the value (`bank_transfer`) is the API's, the label the person's. */
export const KINDS = [
  { value: 'cash', label: 'Cash' },
  { value: 'card', label: 'Card' },
  { value: 'bank_transfer', label: 'Bank transfer' },
  { value: 'crypto', label: 'Crypto' },
  { value: 'other', label: 'Other' },
];
type Change = PaymentMethodChange;

/**
 * One method, edited where it is shown. Where it applies (exchange, currency) stays fixed: orders already name it,
 * so a method that should apply elsewhere is a new one and this one is deactivated.
 */
export function PaymentMethodRow({
  method,
  where,
  currency,
}: {
  method: PaymentMethod;
  where: string;
  currency: string;
}) {
  const form = useForm({ initialValues: { name: method.name, kind: method.kind } });
  const save = useUpdatePaymentMethod(method.id);
  useUnsavedChanges(form.isDirty(), `Payment method ${method.name}`);
  const submit = form.onSubmit((v) => {
    const change: Change = {};
    if (v.name.trim() !== method.name) change.name = v.name;
    if (v.kind !== method.kind) change.kind = v.kind as Change['kind'];
    if (Object.keys(change).length === 0) return;
    save.mutate(change, {
      onSuccess: (saved) => {
        form.setInitialValues({ name: saved.name, kind: saved.kind });
        form.setValues({ name: saved.name, kind: saved.kind });
      },
      onError: fieldErrorsTo(form),
    });
  });
  const formId = `payment-method-${method.id}`;
  return (
    <Table.Tr data-payment-method-id={method.id}>
      <Table.Td>
        <TextInput size="xs" aria-label={`Name of ${method.name}`} form={formId} {...form.getInputProps('name')} />
      </Table.Td>
      <Table.Td>
        <Select
          size="xs"
          aria-label={`Kind of ${method.name}`}
          data={KINDS}
          allowDeselect={false}
          w={150}
          {...form.getInputProps('kind')}
        />
      </Table.Td>
      <Table.Td>{where}</Table.Td>
      <Table.Td>{currency}</Table.Td>
      <Table.Td>
        <Switch
          checked={method.isActive}
          aria-label={`${method.name} active`}
          disabled={save.isPending}
          onChange={(e) => save.mutate({ isActive: e.currentTarget.checked })}
        />
      </Table.Td>
      <Table.Td>
        <form id={formId} onSubmit={submit}>
          <Button type="submit" size="xs" variant="light" loading={save.isPending} disabled={!form.isDirty()}>
            Save
          </Button>
        </form>
      </Table.Td>
    </Table.Tr>
  );
}
