import { SimpleGrid, Table, VisuallyHidden } from '@mantine/core';
import type { Offer } from '../../../lib/api/types';
import { useNarrow } from '../../../lib/use-phone';
import { useRateSources } from '../../rate-sources';
import { OfferCard } from './OfferCard';
import { OfferRow } from './OfferRow';

/**
 * A row (or card) starts its form anew when what it edits changed under it (a save, another tab's), not at a re-price:
 * the source sets a source-priced offer's rate, which the row shows as it comes, and the list is read again every few
 * seconds while a source prices offers, so a minimum being typed stays.
 */
export const editorKey = (o: Offer) =>
  [o.id, o.pricing.mode === 'source' ? 'source' : o.rate, o.minAmount, o.maxAmount].join('-');

/**
 * An exchange's offers, edited in place: a table, or below `md` (a tablet, a phone: the table's inputs and Save do
 * not fit 768 px) a card an offer, two abreast on a tablet.
 */
export function OfferList({ offers, onPricing }: { offers: Offer[]; onPricing: (id: number) => void }) {
  const narrow = useNarrow();
  const sources = useRateSources();
  const sourceName = (o: Offer) =>
    o.pricing.mode === 'source'
      ? sources.data?.data.find((s) => s.id === (o.pricing as { sourceId: number }).sourceId)?.name
      : undefined;
  if (narrow) {
    return (
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" role="group" aria-label="Offers">
        {offers.map((o) => (
          <OfferCard key={editorKey(o)} offer={o} sourceName={sourceName(o)} onPricing={onPricing} />
        ))}
      </SimpleGrid>
    );
  }
  return (
    // From md up the navigation stands beside the table, which has 730 px left at 992 px: it fits, nothing scrolls.
    <Table.ScrollContainer minWidth={680}>
      <Table aria-label="Offers">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Pair</Table.Th>
            <Table.Th>Rate</Table.Th>
            <Table.Th>Minimum</Table.Th>
            <Table.Th>Maximum</Table.Th>
            <Table.Th>Active</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {offers.map((o) => (
            <OfferRow key={editorKey(o)} offer={o} sourceName={sourceName(o)} onPricing={onPricing} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
