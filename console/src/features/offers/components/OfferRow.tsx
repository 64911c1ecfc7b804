import { Group, Table, Text } from '@mantine/core';
import type { Offer } from '../../../lib/api/types';
import { useOfferEditor } from '../hooks/use-offer-editor';
import { PricingActions, PricingFacts } from './OfferPricing';

/** One offer as a row of the offers table, edited in place; how its rate is made under its pair. */
export function OfferRow({
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
    <Table.Tr data-offer-id={offer.id} data-pricing-state={offer.pricingState}>
      <Table.Td>
        <Text fw={600} size="sm">
          {o.pair}
        </Text>
        <PricingFacts offer={offer} sourceName={sourceName} />
      </Table.Td>
      <Table.Td>{o.input('rate', 'Rate')}</Table.Td>
      <Table.Td>{o.input('minAmount', 'Minimum')}</Table.Td>
      <Table.Td>{o.input('maxAmount', 'Maximum')}</Table.Td>
      <Table.Td>{o.active}</Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          {o.save}
          <PricingActions offer={offer} onPricing={onPricing} />
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
