import { Select, SimpleGrid, Table, Text, VisuallyHidden } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { exchangeOptions, useLookups } from '../../components/lookups';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useNarrow } from '../../components/use-phone';
import { NewOfferForm } from './NewOfferForm';
import { OfferCard } from './OfferCard';
import { OfferRow } from './OfferRow';
import { useOffers } from './use-offers';

/**
 * The rates of one exchange, edited in place: a saved change is what partners' estimates use from then on. A table,
 * or below `md` (a tablet, a phone: the table's inputs and Save do not fit 768 px) a card an offer, two abreast on
 * a tablet.
 */
export function OffersPage() {
  const lookups = useLookups();
  // The exchange is in the address (?exchange=<id>), so the logs can link to an offer's exchange and a reload keeps it.
  const [params, setParams] = useSearchParams();
  const picked = params.get('exchange');
  const exchange = picked ?? (lookups.data?.exchanges[0] ? String(lookups.data.exchanges[0].id) : null);
  // An address may name an exchange gone from the user's reach (a link from the audit log): say so, not an empty list.
  const known = exchange !== null && (!lookups.data || lookups.data.exchanges.some((e) => String(e.id) === exchange));
  const offers = useOffers(known ? Number(exchange) : null);
  const narrow = useNarrow();
  return (
    <>
      <PageHeader title="Offers and rates" description="Rate: units the client gets for one unit given. Limits are in the currency the client gives." />
      <Select label="Exchange" data={exchangeOptions(lookups.data)} value={exchange} onChange={(v) => setParams(v ? { exchange: v } : {}, { replace: true })} w={420} maw="100%" mb="md" allowDeselect={false} />
      {exchange === null ? <Text c="dimmed">No exchange yet.</Text> : !known ? <Text c="dimmed">No exchange #{exchange} in your reach.</Text> : (
        <QueryState query={offers}>
          {(data) => (
            <>
              {narrow ? (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" role="group" aria-label="Offers">
                  {data.data.map((o) => <OfferCard key={`${o.id}-${o.updatedAt}`} offer={o} />)}
                </SimpleGrid>
              ) : (
                // From md up the navigation stands beside the table, which has 730 px left at 992 px: it fits, nothing scrolls.
                <Table.ScrollContainer minWidth={680}>
                  <Table aria-label="Offers">
                    <Table.Thead>
                      <Table.Tr><Table.Th>Pair</Table.Th><Table.Th>Rate</Table.Th><Table.Th>Minimum</Table.Th><Table.Th>Maximum</Table.Th><Table.Th>Active</Table.Th><Table.Th><VisuallyHidden>Actions</VisuallyHidden></Table.Th></Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>{data.data.map((o) => <OfferRow key={`${o.id}-${o.updatedAt}`} offer={o} />)}</Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
              {data.data.length === 0 && <Text c="dimmed">No offers at this exchange.</Text>}
              <NewOfferForm exchangeId={Number(exchange)} />
            </>
          )}
        </QueryState>
      )}
    </>
  );
}
