import { Badge, Button, Drawer, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
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

/** Resume (a suspended offer), and the button that opens the pricing drawer, which the page holds. */
export function PricingActions({ offer, onPricing }: { offer: Offer; onPricing: (id: number) => void }) {
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
      <Button
        size="xs"
        variant="default"
        onClick={() => onPricing(offer.id)}
        aria-label={`Pricing and chart of ${pair}`}
      >
        Pricing
      </Button>
    </Group>
  );
}

/**
 * The pricing form and the rate chart of the offer the page names (`?offer=<id>`), read from the current list: a
 * row drawn anew after a save or a refetch leaves it open, and it closes when the offer is no longer listed.
 */
export function PricingDrawer({ offer, onClose }: { offer: Offer | undefined; onClose: () => void }) {
  const pair = offer ? `${offer.currency1.code} → ${offer.currency2.code}` : '';
  return (
    <Drawer opened={offer !== undefined} onClose={onClose} position="right" size="lg" title={`${pair}: pricing`}>
      {offer && (
        // Keyed by the offer alone: a refetch brings a new object, and what is typed in the form stays.
        <div key={offer.id}>
          <PricingForm offer={offer} />
          <Title order={3} size="h5" mt="lg" mb="xs">
            Rate and reference
          </Title>
          <Suspense fallback={<Loader role="status" aria-label="Loading" />}>
            <RateChart offer={offer} />
          </Suspense>
        </div>
      )}
    </Drawer>
  );
}
