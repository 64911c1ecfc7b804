import { Button, Group, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useUnsavedChanges } from '../../../components/unsaved-guard';
import type { Offer } from '../../../lib/api/types';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { decimal } from '../../../lib/format';
import { showDone } from '../../../lib/notify';
import { useRateSources } from '../../rate-sources';
import type { OfferChange } from '../api/offers';
import { useUpdateOffer } from '../hooks/use-offers';

interface Values {
  mode: 'fixed' | 'source';
  rate: string;
  pricing: {
    sourceId: string | null;
    base: string;
    quote: string;
    marginPercent: string;
    decimals: string;
    floor: string;
    ceiling: string;
    maxJumpPercent: string;
  };
}

const text = (v: number | string | null | undefined) => (v === null || v === undefined ? '' : decimal(v));

function valuesOf(o: Offer): Values {
  const p = o.pricing.mode === 'source' ? o.pricing : null;
  return {
    mode: o.pricing.mode,
    rate: decimal(o.rate),
    pricing: {
      sourceId: p ? String(p.sourceId) : null,
      base: p?.base ?? o.currency1.code,
      quote: p?.quote ?? o.currency2.code,
      marginPercent: text(p?.marginPercent ?? '0'),
      decimals: text(p?.decimals),
      floor: text(p?.floor),
      ceiling: text(p?.ceiling),
      maxJumpPercent: text(p?.maxJumpPercent),
    },
  };
}

/** The change the form asks for: a fixed rate (the current one unless retyped) or the source's settings. */
export function pricingChange(v: Values, offer: Offer): OfferChange {
  if (v.mode === 'fixed') {
    const rate = v.rate.trim();
    return {
      pricing: { mode: 'fixed' },
      ...(offer.pricing.mode === 'source' || rate !== decimal(offer.rate) ? { rate } : {}),
    };
  }
  const p = v.pricing;
  const optional = (key: 'floor' | 'ceiling' | 'maxJumpPercent') => (p[key].trim() ? { [key]: p[key].trim() } : {});
  return {
    pricing: {
      mode: 'source',
      sourceId: Number(p.sourceId),
      base: p.base.trim().toUpperCase(),
      quote: p.quote.trim().toUpperCase(),
      marginPercent: p.marginPercent.trim() || '0',
      ...(p.decimals.trim() ? { decimals: Number(p.decimals) } : {}),
      ...optional('floor'),
      ...optional('ceiling'),
      ...optional('maxJumpPercent'),
    },
  };
}

/**
 * How the offer's rate is made: fixed (staff type it) or from a rate source with a margin. The API's refusals land
 * under their fields (`pricing.marginPercent`, `rate`); a pair the source has not read comes as a notice.
 */
export function PricingForm({ offer, onDone }: { offer: Offer; onDone?: () => void }) {
  const update = useUpdateOffer(offer.id);
  const sources = useRateSources();
  const form = useForm<Values>({
    initialValues: valuesOf(offer),
    validate: {
      pricing: {
        sourceId: (v, all) => (all.mode === 'source' && !v ? 'Choose the rate source' : null),
        decimals: (v) => (v.trim() === '' || /^\d+$/.test(v.trim()) ? null : 'A whole number from 0 to 18'),
      },
    },
  });
  const pair = `${offer.currency1.code} → ${offer.currency2.code}`;
  useUnsavedChanges(form.isDirty(), `${pair}: pricing`);
  // The row is drawn anew once the list is refreshed with the saved offer, and this form may be too (a phone's card
  // is another layout), before mutate's own callbacks would run: the promise still settles, so the notice is shown.
  const onError = fieldErrorsTo(form);
  const submit = form.onSubmit((v) =>
    update.mutateAsync(pricingChange(v, offer)).then((saved) => {
      form.setInitialValues(valuesOf(saved));
      form.setValues(valuesOf(saved));
      showDone(`${pair}: ${saved.pricing.mode === 'source' ? 'priced from the source' : 'fixed rate'}`);
      onDone?.();
    }, onError),
  );
  const options = (sources.data?.data ?? []).map((s) => ({ value: String(s.id), label: s.name }));
  return (
    <form onSubmit={submit} aria-label={`Pricing of ${pair}`}>
      <Select
        label="Pricing"
        data={[
          { value: 'fixed', label: 'Fixed rate' },
          { value: 'source', label: 'From a rate source, with a margin' },
        ]}
        allowDeselect={false}
        mb="sm"
        {...form.getInputProps('mode')}
      />
      {form.values.mode === 'fixed' ? (
        <TextInput
          label="Rate"
          required
          inputMode="decimal"
          description={`${offer.currency2.code} given for 1 ${offer.currency1.code}`}
          {...form.getInputProps('rate')}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label="Rate source"
            required
            data={options}
            nothingFoundMessage="No rate source: add one on the Rate sources page"
            {...form.getInputProps('pricing.sourceId')}
          />
          <TextInput
            label="Margin (%)"
            required
            inputMode="decimal"
            description="rate = reference × (1 + margin/100); negative below it"
            {...form.getInputProps('pricing.marginPercent')}
          />
          <TextInput
            label="Reference base"
            required
            description="1 base = reference quote, as the source names it"
            {...form.getInputProps('pricing.base')}
          />
          <TextInput label="Reference quote" required {...form.getInputProps('pricing.quote')} />
          <TextInput
            label="Decimals (optional)"
            inputMode="numeric"
            description="Rounded down; empty: 8 significant digits"
            {...form.getInputProps('pricing.decimals')}
          />
          <TextInput
            label="Suspend on a jump over (%) (optional)"
            inputMode="decimal"
            {...form.getInputProps('pricing.maxJumpPercent')}
          />
          <TextInput label="Floor (optional)" inputMode="decimal" {...form.getInputProps('pricing.floor')} />
          <TextInput label="Ceiling (optional)" inputMode="decimal" {...form.getInputProps('pricing.ceiling')} />
        </SimpleGrid>
      )}
      <Group justify="flex-end" mt="md">
        <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
          Save pricing
        </Button>
      </Group>
    </form>
  );
}
