import { Button, Switch, Table, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Offer } from '../../api/types';
import { decimal } from '../../components/format';
import { showDone } from '../../components/notify';
import { fieldErrorsTo } from '../../components/use-save';
import { useUpdateOffer } from './use-offers';

type Fields = { rate: string; minAmount: string; maxAmount: string };
const fieldsOf = (o: Offer): Fields => ({ rate: decimal(o.rate), minAmount: decimal(o.minAmount), maxAmount: decimal(o.maxAmount) });

/**
 * One offer, edited where it is shown: rate and limits are decimal text sent as given (never through a float),
 * saved with Enter or the button; the API's message for a field appears under that field and nothing changes.
 */
export function OfferRow({ offer }: { offer: Offer }) {
  const update = useUpdateOffer(offer.id);
  const form = useForm<Fields>({ initialValues: fieldsOf(offer) });
  const pair = `${offer.currency1.code} → ${offer.currency2.code}`;

  const save = form.onSubmit((values) => {
    const change: Partial<Fields> = {};
    for (const k of Object.keys(values) as (keyof Fields)[]) if (values[k].trim() !== fieldsOf(offer)[k]) change[k] = values[k].trim();
    if (Object.keys(change).length === 0) return;
    update.mutate(change, {
      onSuccess: (saved) => { form.setInitialValues(fieldsOf(saved)); form.setValues(fieldsOf(saved)); showDone(`${pair}: saved`); },
      onError: fieldErrorsTo(form),
    });
  });
  const toggle = (active: boolean) => update.mutate({ isActive: active }, { onSuccess: () => showDone(`${pair}: ${active ? 'active' : 'inactive'}`) });
  const input = (field: keyof Fields, label: string) => (
    <TextInput aria-label={`${label} of ${pair}`} size="xs" inputMode="decimal" {...form.getInputProps(field)} data-field={field} form={`offer-${offer.id}`} />
  );

  return (
    <Table.Tr data-offer-id={offer.id}>
      <Table.Td fw={600}>{pair}</Table.Td>
      <Table.Td>{input('rate', 'Rate')}</Table.Td>
      <Table.Td>{input('minAmount', 'Minimum')}</Table.Td>
      <Table.Td>{input('maxAmount', 'Maximum')}</Table.Td>
      <Table.Td>
        <Switch checked={offer.isActive} onChange={(e) => toggle(e.currentTarget.checked)} aria-label={`${pair} active`} disabled={update.isPending} />
      </Table.Td>
      <Table.Td>
        {/* A form cannot wrap table cells: the inputs and the button belong to the row's form by its id, so Enter saves. */}
        <form id={`offer-${offer.id}`} onSubmit={save} />
        <Button type="submit" form={`offer-${offer.id}`} size="xs" disabled={!form.isDirty()} loading={update.isPending}>Save</Button>
      </Table.Td>
    </Table.Tr>
  );
}
