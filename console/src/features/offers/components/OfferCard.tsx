import { Group, Paper, SimpleGrid, Text } from '@mantine/core';
import type { Offer } from '../../../lib/api/types';
import { useOfferEditor } from '../hooks/use-offer-editor';

/** One offer on a phone, where the table's six columns do not fit: the pair and its switch, then the three figures. */
export function OfferCard({ offer }: { offer: Offer }) {
  const o = useOfferEditor(offer);
  return (
    <Paper withBorder p="xs" data-offer-id={offer.id}>
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Text fw={600} size="sm">
          {o.pair}
        </Text>
        {o.active}
      </Group>
      <SimpleGrid cols={3} spacing="xs">
        {o.input('rate', 'Rate', true)}
        {o.input('minAmount', 'Minimum', true)}
        {o.input('maxAmount', 'Maximum', true)}
      </SimpleGrid>
      <Group justify="flex-end" mt="xs">
        {o.save}
      </Group>
    </Paper>
  );
}
