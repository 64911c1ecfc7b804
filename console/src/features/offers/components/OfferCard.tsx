import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { Offer } from '../../../lib/api/types';
import { useOfferEditor } from '../hooks/use-offer-editor';
import { PricingActions, PricingFacts } from './OfferPricing';

/** One offer on a phone, where the table's six columns do not fit: the pair and its switch, then the three figures. */
export function OfferCard({
  offer,
  sourceName,
  onPricing,
}: {
  offer: Offer;
  sourceName?: string;
  onPricing: (id: number) => void;
}) {
  const o = useOfferEditor(offer);
  return (
    <Paper withBorder p="xs" data-offer-id={offer.id} data-pricing-state={offer.pricingState}>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <div>
          <Text fw={600} size="sm">
            {o.pair}
          </Text>
          <PricingFacts offer={offer} sourceName={sourceName} />
        </div>
        {o.active}
      </Group>
      <SimpleGrid cols={3} spacing="xs">
        {o.input('rate', 'Rate', true)}
        {o.input('minAmount', 'Minimum', true)}
        {o.input('maxAmount', 'Maximum', true)}
      </SimpleGrid>
      <Group justify="flex-end" mt="xs" gap="xs">
        <PricingActions offer={offer} onPricing={onPricing} />
        {o.save}
      </Group>
    </Paper>
  );
}
