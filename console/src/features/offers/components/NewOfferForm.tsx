import { Button, Group, Paper, Select, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { currencyOptions, useLookups } from '../../lookups';
import { showDone } from '../../../lib/notify';
import { fieldErrorsInWords } from '../../../lib/forms/field-words';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { useCreateOffer } from '../hooks/use-offers';
import { OFFER_WORDS } from './offer-words';

/** A new pair at the exchange, active at once (partners see it and offer.updated is sent). */
export function NewOfferForm({ exchangeId }: { exchangeId: number }) {
  const lookups = useLookups();
  const create = useCreateOffer();
  // Null, not '': a Select given '' keeps showing the label it had, so a reset form would look filled in.
  const form = useForm({
    initialValues: {
      currency1Id: null as string | null,
      currency2Id: null as string | null,
      rate: '',
      minAmount: '',
      maxAmount: '',
    },
  });
  useUnsavedChanges(form.isDirty(), 'New offer');
  const submit = form.onSubmit((v) =>
    create.mutate(
      {
        exchangeId,
        currency1Id: Number(v.currency1Id),
        currency2Id: Number(v.currency2Id),
        rate: v.rate.trim(),
        maxAmount: v.maxAmount.trim(),
        ...(v.minAmount.trim() ? { minAmount: v.minAmount.trim() } : {}),
      },
      {
        onSuccess: () => {
          form.reset();
          showDone('Offer created');
        },
        onError: fieldErrorsInWords(form, OFFER_WORDS),
      },
    ),
  );
  return (
    <Paper withBorder p="md" mt="md" component="form" onSubmit={submit} aria-labelledby="new-offer">
      <Title order={2} size="h5" id="new-offer" mb="xs">
        New offer
      </Title>
      <Group align="flex-start" wrap="wrap">
        <Select
          label="Client gives"
          data={currencyOptions(lookups.data)}
          required
          searchable
          w={180}
          {...form.getInputProps('currency1Id')}
        />
        <Select
          label="Client gets"
          data={currencyOptions(lookups.data)}
          required
          searchable
          w={180}
          {...form.getInputProps('currency2Id')}
        />
        <TextInput label="Rate" required inputMode="decimal" w={150} {...form.getInputProps('rate')} />
        <TextInput label="Minimum" inputMode="decimal" w={120} {...form.getInputProps('minAmount')} />
        <TextInput label="Maximum" required inputMode="decimal" w={120} {...form.getInputProps('maxAmount')} />
        <Button type="submit" mt={25} loading={create.isPending}>
          Add
        </Button>
      </Group>
    </Paper>
  );
}
