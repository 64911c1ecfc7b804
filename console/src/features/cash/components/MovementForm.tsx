import { Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { compare, money, signedAmount, subtract } from '../../../lib/decimal';
import { grouped } from '../../../lib/format';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { cashKeys } from '../api/keys';
import { useRecordMovement } from '../hooks/use-cash';
import { amountProblem, choiceOptions, currencyChoices, type CashFormProps } from './amount-rules';

export type MovementKind = 'deposit' | 'withdrawal' | 'count';

type Fields = { currencyId: string | null; amount: string; reason: string };

const WORDS: Record<MovementKind, { amount: string; button: string; title: string }> = {
  deposit: { amount: 'Amount deposited', button: 'Deposit', title: 'Deposit' },
  withdrawal: { amount: 'Amount withdrawn', button: 'Withdraw', title: 'Withdrawal' },
  count: { amount: 'Cash counted', button: 'Record count', title: 'Count' },
};

/**
 * A deposit, a withdrawal or a count of one currency at one exchange. A deposit or a count may start tracking a
 * currency; a withdrawal takes at most what open orders do not hold; a count shows what it will change (counted −
 * balance) while it is typed, before it is saved.
 */
export function MovementForm({
  exchangeId,
  kind,
  positions,
  lookups,
  currencyId,
}: CashFormProps & { kind: MovementKind }) {
  const choices = currencyChoices(positions, lookups, { untracked: kind !== 'withdrawal' });
  const chosen = (id: string | null) => choices.find((c) => String(c.id) === id);
  const form = useForm<Fields>({
    initialValues: {
      currencyId: choices.some((c) => c.id === currencyId) ? String(currencyId) : null,
      amount: '',
      reason: '',
    },
    validate: {
      currencyId: (v) => (v ? null : 'Pick a currency'),
      amount: (v, values) => {
        const choice = chosen(values.currencyId);
        const problem = amountProblem(v, choice?.decimals, { zero: kind === 'count' });
        if (problem || kind !== 'withdrawal' || !choice?.position) return problem;
        const p = choice.position;
        return compare(v.trim(), p.available) > 0
          ? `Only ${money(p.available, choice.decimals)} ${p.currency.ticker} is available: ${money(p.held, choice.decimals)} is held by open orders`
          : null;
      },
    },
  });
  const values = form.getValues();
  // Picking a currency alone loses nothing: only a typed amount or reason is worth asking about.
  useUnsavedChanges(
    values.amount.trim() !== '' || values.reason.trim() !== '',
    `Cash ${WORDS[kind].title.toLowerCase()}`,
  );
  const save = useRecordMovement(exchangeId);
  const queryClient = useQueryClient();
  const choice = chosen(values.currencyId);
  const ticker = choice?.ticker ?? '';
  const counted = values.amount.trim();
  const balance = choice?.position?.balance ?? 0;
  const showDifference =
    kind === 'count' && choice !== undefined && amountProblem(counted, choice.decimals, { zero: true }) === null;
  return (
    <form
      aria-label={WORDS[kind].title}
      onSubmit={form.onSubmit((v) =>
        save.mutate(
          {
            currencyId: Number(v.currencyId),
            body: { kind, amount: v.amount.trim(), ...(v.reason.trim() ? { reason: v.reason.trim() } : {}) },
          },
          {
            onSuccess: () => form.setValues({ amount: '', reason: '' }),
            onError: (err) => {
              fieldErrorsTo(form)(err);
              // A refusal for lack of cash means the figures shown are behind (an order took some): show today's.
              void queryClient.invalidateQueries({ queryKey: cashKeys.positions(exchangeId) });
            },
          },
        ),
      )}
    >
      <Group align="flex-start" wrap="wrap">
        <Select
          label="Currency"
          required
          w={150}
          searchable
          allowDeselect={false}
          nothingFoundMessage={kind === 'withdrawal' ? 'No tracked currency' : 'No currency'}
          data={choiceOptions(choices)}
          {...form.getInputProps('currencyId')}
        />
        <TextInput
          label={WORDS[kind].amount}
          required
          inputMode="decimal"
          autoComplete="off"
          w={180}
          rightSection={
            <Text size="xs" c="dimmed">
              {ticker}
            </Text>
          }
          rightSectionWidth={48}
          {...form.getInputProps('amount')}
        />
        <TextInput label="Reason (optional)" w={260} maxLength={500} {...form.getInputProps('reason')} />
        <Button type="submit" mt={25} loading={save.isPending}>
          {WORDS[kind].button}
        </Button>
      </Group>
      {kind === 'count' && (
        <Text size="sm" mt="xs" aria-live="polite" data-count-difference>
          {showDifference
            ? `Difference: ${signedAmount(subtract(counted, balance), choice.decimals)} ${ticker} (counted ${grouped(counted)} − balance ${money(balance, choice.decimals)})`
            : 'Enter the cash counted to see the difference from the balance.'}
        </Text>
      )}
      {kind === 'withdrawal' && choice?.position && (
        <Text size="sm" mt="xs" c="dimmed">
          Available: {money(choice.position.available, choice.decimals)} {ticker} (
          {money(choice.position.held, choice.decimals)} held by open orders)
        </Text>
      )}
    </form>
  );
}
