import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { compare, money } from '../../../lib/decimal';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { useTransfer } from '../hooks/use-cash';
import { amountProblem, choiceOptions, currencyChoices, type CashFormProps } from './amount-rules';

type Fields = { currencyId: string | null; toExchangeId: string | null; amount: string; reason: string };

/** Cash carried from this exchange to another of its branch: two ledger entries, one at each end. */
export function TransferForm({ exchangeId, positions, lookups, currencyId }: CashFormProps) {
  const choices = currencyChoices(positions, lookups, { untracked: false });
  const chosen = (id: string | null) => choices.find((c) => String(c.id) === id);
  const branchId = lookups?.exchanges.find((x) => x.id === exchangeId)?.branchId;
  const destinations = (lookups?.exchanges ?? [])
    .filter((x) => x.branchId === branchId && x.id !== exchangeId)
    .map((x) => ({ value: String(x.id), label: x.name }));
  const form = useForm<Fields>({
    initialValues: {
      currencyId: choices.some((c) => c.id === currencyId) ? String(currencyId) : null,
      toExchangeId: destinations.length === 1 ? destinations[0]!.value : null,
      amount: '',
      reason: '',
    },
    validate: {
      currencyId: (v) => (v ? null : 'Pick a currency'),
      toExchangeId: (v) => (v ? null : 'Pick the exchange that receives the cash'),
      amount: (v, values) => {
        const choice = chosen(values.currencyId);
        const problem = amountProblem(v, choice?.decimals);
        const p = choice?.position;
        if (problem || !p) return problem;
        return compare(v.trim(), p.available) > 0
          ? `Only ${money(p.available, choice.decimals)} ${p.currency.ticker} is available: ${money(p.held, choice.decimals)} is held by open orders`
          : null;
      },
    },
  });
  const values = form.getValues();
  useUnsavedChanges(values.amount.trim() !== '' || values.reason.trim() !== '', 'Cash transfer');
  const save = useTransfer();
  const choice = chosen(values.currencyId);
  if (destinations.length === 0)
    return <Text size="sm">This exchange is the only one of its branch: there is nowhere to transfer cash to.</Text>;
  return (
    <form
      aria-label="Transfer"
      onSubmit={form.onSubmit((v) =>
        save.mutate(
          {
            fromExchangeId: exchangeId,
            toExchangeId: Number(v.toExchangeId),
            currencyId: Number(v.currencyId),
            amount: v.amount.trim(),
            ...(v.reason.trim() ? { reason: v.reason.trim() } : {}),
          },
          {
            onSuccess: () => form.setValues({ amount: '', reason: '' }),
            onError: fieldErrorsTo(form),
          },
        ),
      )}
    >
      <Group align="flex-start" wrap="wrap">
        <Select
          label="Currency"
          required
          w={150}
          allowDeselect={false}
          nothingFoundMessage="No tracked currency"
          data={choiceOptions(choices)}
          {...form.getInputProps('currencyId')}
        />
        <Select
          label="To exchange"
          required
          w={220}
          allowDeselect={false}
          data={destinations}
          {...form.getInputProps('toExchangeId')}
        />
        <TextInput
          label="Amount"
          required
          inputMode="decimal"
          autoComplete="off"
          w={180}
          rightSection={
            <Text size="xs" c="dimmed">
              {choice?.ticker ?? ''}
            </Text>
          }
          rightSectionWidth={48}
          {...form.getInputProps('amount')}
        />
        <TextInput label="Reason (optional)" w={260} maxLength={500} {...form.getInputProps('reason')} />
        <Button type="submit" mt={25} loading={save.isPending}>
          Transfer
        </Button>
      </Group>
    </form>
  );
}
