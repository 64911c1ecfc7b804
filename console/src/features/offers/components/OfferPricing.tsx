import { Badge, Button, Drawer, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import type { Offer } from '../../../lib/api/types';
import { grouped, when } from '../../../lib/format';
import { showDone } from '../../../lib/notify';
import { useResumeOffer } from '../hooks/use-offers';
import { PricingForm } from './PricingForm';
import { pricingLine, suspension } from './offer-pricing';

// The chart library is fetched when a chart is first opened, not with the offers page.
const RateChart = lazy(() => import('./RateChart'));

/** How the offer is priced, in one line under its pair: mode, source and margin, reference and its time. */
export function PricingFacts({ offer, sourceName }: { offer: Offer; sourceName?: string }) {
  const stopped = suspension(offer);
  return (
    <Stack gap={2} mt={2}>
      <Group gap={4} wrap="wrap">
        <Badge size="xs" variant="light" color={offer.pricing.mode === 'source' ? 'blue' : 'gray'} data-pricing-mode>
          {offer.pricing.mode === 'source' ? 'Source' : 'Fixed'}
        </Badge>
        {stopped && (
          <Badge size="xs" color="red" data-suspended={offer.suspendedReason ?? 'suspended'}>
            {stopped}
          </Badge>
        )}
      </Group>
      {offer.pricing.mode === 'source' && (
        <Text size="xs" c="dimmed" fw={400} data-pricing>
          {sourceName ?? `source #${offer.pricing.sourceId}`} · {pricingLine(offer)}
          {offer.referenceRate !== undefined && (
            <>
              {' '}
              · reference <span data-reference>{grouped(offer.referenceRate)}</span>
              {offer.referenceAt && <> at {when(offer.referenceAt)}</>}
            </>
          )}
        </Text>
      )}
    </Stack>
  );
}

/** Resume (a suspended offer) and the drawer with the pricing form and the rate chart. */
export function PricingActions({ offer }: { offer: Offer }) {
  const [open, setOpen] = useState(false);
  const resume = useResumeOffer(offer.id);
  const pair = `${offer.currency1.code} → ${offer.currency2.code}`;
  return (
    <Group gap={4} wrap="nowrap">
      {offer.pricingState === 'suspended' && (
        <Button
          size="xs"
          color="orange"
          loading={resume.isPending}
          aria-label={`Resume ${pair}`}
          onClick={() =>
            // The row is drawn anew with the resumed offer before mutate's callbacks would run; the promise settles.
            void resume.mutateAsync().then(
              (o) => showDone(`${pair}: resumed at ${grouped(o.rate)}, offered to partners again`),
              () => undefined,
            )
          }
        >
          Resume
        </Button>
      )}
      <Button size="xs" variant="default" onClick={() => setOpen(true)} aria-label={`Pricing and chart of ${pair}`}>
        Pricing
      </Button>
      <Drawer opened={open} onClose={() => setOpen(false)} position="right" size="lg" title={`${pair}: pricing`}>
        <PricingForm offer={offer} />
        <Title order={3} size="h5" mt="lg" mb="xs">
          Rate and reference
        </Title>
        {open && (
          <Suspense fallback={<Loader role="status" aria-label="Loading" />}>
            <RateChart offer={offer} />
          </Suspense>
        )}
      </Drawer>
    </Group>
  );
}
