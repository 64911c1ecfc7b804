import { Button, Switch, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useForm } from '@mantine/form';
import type { Offer } from '../../../lib/api/types';
import { decimal, grouped } from '../../../lib/format';
import { showDone } from '../../../lib/notify';
import { fieldErrorsInWords } from '../../../lib/forms/field-words';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import { OFFER_WORDS } from '../components/offer-words';
import { useUpdateOffer } from './use-offers';

type Fields = { rate: string; minAmount: string; maxAmount: string };
const WORDS: Fields = { rate: 'rate', minAmount: 'minimum', maxAmount: 'maximum' };
const fieldsOf = (o: Offer): Fields => ({
  rate: decimal(o.rate),
  minAmount: decimal(o.minAmount),
  maxAmount: decimal(o.maxAmount),
});

/**
 * One offer, edited where it is shown (a table row, or a card on a phone): rate and limits are decimal text sent as
 * given (never through a float), saved with Enter or the button; the API's message for a field appears under that
 * field and nothing changes. The parts are laid out by the row or the card.
 */
export function useOfferEditor(offer: Offer) {
  const update = useUpdateOffer(offer.id);
  const form = useForm<Fields>({ initialValues: fieldsOf(offer) });
  const pair = `${offer.currency1.code} → ${offer.currency2.code}`;
  const formId = `offer-${offer.id}`;
  const edited = (Object.keys(WORDS) as (keyof Fields)[]).filter((k) => form.isDirty(k)).map((k) => WORDS[k]);
  useUnsavedChanges(edited.length > 0, `${pair}: ${edited.join(', ')}`);

  const fromSource = offer.pricing.mode === 'source';
  const save = form.onSubmit((values) => {
    const change: Partial<Fields> = {};
    for (const k of Object.keys(values) as (keyof Fields)[])
      if (values[k].trim() !== fieldsOf(offer)[k] && !(k === 'rate' && fromSource)) change[k] = values[k].trim();
    if (Object.keys(change).length === 0) return;
    const send = () =>
      update.mutate(change, {
        onSuccess: (saved) => {
          form.setInitialValues(fieldsOf(saved));
          form.setValues(fieldsOf(saved));
          showDone(`${pair}: saved`);
        },
        onError: fieldErrorsInWords(form, OFFER_WORDS),
      });
    const jump = change.rate === undefined ? null : rateJump(fieldsOf(offer).rate, change.rate);
    if (jump === null) return send();
    // Partners quote a new rate at once: a slip of the decimal point would be money given away, so ask first.
    modals.openConfirmModal({
      title: `Change the rate of ${pair}?`,
      children: (
        <Text size="sm">
          From {fieldsOf(offer).rate} to {change.rate}: {jump}. Partners quote the new rate at once.
        </Text>
      ),
      labels: { confirm: 'Save the new rate', cancel: 'Keep editing' },
      confirmProps: { color: 'orange' },
      onConfirm: send,
    });
  });
  const toggle = (active: boolean) =>
    update.mutate({ isActive: active }, { onSuccess: () => showDone(`${pair}: ${active ? 'active' : 'inactive'}`) });

  return {
    pair,
    /** `shown`: the label is shown too, where no column header says what the input is. */
    input: (field: keyof Fields, label: string, shown = false) => (
      <TextInput
        aria-label={`${label} of ${pair}`}
        label={shown ? label : undefined}
        size="xs"
        inputMode="decimal"
        {...form.getInputProps(field)}
        // A source sets the rate of a source-priced offer: shown as the list last read it, not typed (the API would
        // refuse it).
        {...(field === 'rate' && fromSource ? { value: decimal(offer.rate), readOnly: true, variant: 'filled' } : {})}
        data-field={field}
        form={formId}
      />
    ),
    active: (
      <Switch
        checked={offer.isActive}
        onChange={(e) => toggle(e.currentTarget.checked)}
        aria-label={`${pair} active`}
        disabled={update.isPending}
      />
    ),
    // A form cannot wrap table cells: the inputs and the button belong to the offer's form by its id, so Enter saves.
    save: (
      <>
        <form id={formId} onSubmit={save} />
        <Button type="submit" form={formId} size="xs" disabled={!form.isDirty()} loading={update.isPending}>
          Save
        </Button>
      </>
    ),
  };
}

/**
 * How far a new rate moves from the old one when that is more than twice or less than half ("1000 times lower"),
 * else null. A warning's estimate, not money: the rate saved is the text as typed.
 */
export function rateJump(before: string, after: string): string | null {
  const [a, b] = [Number(before), Number(after)];
  if (!(a > 0) || !(b > 0)) return null;
  const factor = b / a;
  if (factor <= 2 && factor >= 0.5) return null;
  const times = factor > 1 ? factor : 1 / factor;
  return `${times >= 10 ? grouped(Math.round(times)) : times.toFixed(1)} times ${factor > 1 ? 'higher' : 'lower'}`;
}
