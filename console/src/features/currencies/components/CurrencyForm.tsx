import { Button, Group, NumberInput, Select, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import type { Currency } from '../../../lib/api/types';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { useSaveCurrency } from '../hooks/use-currencies';

type Fields = { ticker: string; name: string; decimals: number | string; kind: string };

/** A currency's ticker, name, decimals and kind; a new one when `currency` is null. */
export function CurrencyForm({ currency, onSaved }: { currency: Currency | null; onSaved?: () => void }) {
  const form = useForm<Fields>({
    initialValues: {
      ticker: currency?.ticker ?? '',
      name: currency?.name ?? '',
      decimals: currency?.decimals ?? 2,
      kind: currency?.kind ?? 'fiat',
    },
  });
  useUnsavedChanges(form.isDirty(), currency ? `Currency ${currency.ticker}` : 'New currency');
  const save = useSaveCurrency(currency?.id ?? null);
  const bodyOf = (v: Fields) => ({
    ticker: v.ticker.trim().toUpperCase(),
    name: v.name,
    decimals: Number(v.decimals),
    kind: v.kind as 'fiat',
  });
  return (
    <form
      onSubmit={form.onSubmit((v) =>
        save.mutate(bodyOf(v), {
          onSuccess: () => {
            if (!currency) form.reset();
            onSaved?.();
          },
          onError: fieldErrorsTo(form),
        }),
      )}
    >
      <Group align="flex-start" wrap="wrap">
        <TextInput label="Ticker" required w={120} {...form.getInputProps('ticker')} />
        <TextInput label="Name" required w={200} {...form.getInputProps('name')} />
        <NumberInput
          label="Decimals"
          required
          min={0}
          max={18}
          clampBehavior="none"
          w={110}
          hideControls
          {...form.getInputProps('decimals')}
        />
        <Select label="Kind" data={['fiat', 'crypto']} w={120} allowDeselect={false} {...form.getInputProps('kind')} />
        <Button type="submit" mt={25} loading={save.isPending}>
          {currency ? 'Save' : 'Add'}
        </Button>
      </Group>
    </form>
  );
}
