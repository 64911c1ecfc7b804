import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { decimal } from '../../../lib/format';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { useSetLowWatermark } from '../hooks/use-cash';
import { amountProblem, choiceOptions, currencyChoices, type CashFormProps } from './amount-rules';

type Fields = { currencyId: string | null; lowWatermark: string };

/** The level below which a position's available cash is flagged (here and on the home page); 0 flags nothing. */
export function WatermarkForm({ exchangeId, positions, lookups, currencyId }: CashFormProps) {
  const choices = currencyChoices(positions, lookups, { untracked: false });
  const chosen = (id: string | null) => choices.find((c) => String(c.id) === id);
  const first = choices.find((c) => c.id === currencyId) ?? choices[0];
  const form = useForm<Fields>({
    initialValues: {
      currencyId: first ? String(first.id) : null,
      lowWatermark: first?.position ? decimal(first.position.lowWatermark) : '',
    },
    validate: {
      currencyId: (v) => (v ? null : 'Pick a currency'),
      lowWatermark: (v, values) => amountProblem(v, chosen(values.currencyId)?.decimals, { zero: true }),
    },
    onValuesChange: (values, previous) => {
      // Another currency shows its own watermark to edit.
      if (values.currencyId !== previous.currencyId) {
        const p = chosen(values.currencyId)?.position;
        form.setFieldValue('lowWatermark', p ? decimal(p.lowWatermark) : '');
      }
    },
  });
  const save = useSetLowWatermark(exchangeId);
  if (choices.length === 0)
    return <Text size="sm">A watermark is set on a tracked currency: record a first deposit or count.</Text>;
  return (
    <form
      aria-label="Low watermark"
      onSubmit={form.onSubmit((v) =>
        save.mutate(
          { currencyId: Number(v.currencyId), lowWatermark: v.lowWatermark.trim() },
          { onError: fieldErrorsTo(form) },
        ),
      )}
    >
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Currency"
          required
          w={150}
          allowDeselect={false}
          data={choiceOptions(choices)}
          {...form.getInputProps('currencyId')}
        />
        <TextInput
          label="Low watermark"
          description="Available below this is flagged; 0 for never"
          required
          inputMode="decimal"
          autoComplete="off"
          w={220}
          {...form.getInputProps('lowWatermark')}
        />
        <Button type="submit" loading={save.isPending}>
          Set
        </Button>
      </Group>
    </form>
  );
}
