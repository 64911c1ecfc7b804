import { Select, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { exchangeOptions, useLookups } from '../../features/lookups';
import { NewOfferForm, OfferList, PricingDrawer, SpreadTable, useOffers } from '../../features/offers';

/** The rates of one exchange, edited in place: a saved change is what partners' estimates use from then on. */
export function OffersPage() {
  const lookups = useLookups();
  // The exchange is in the address (?exchange=<id>), so the logs can link to an offer's exchange and a reload keeps it.
  const [params, setParams] = useSearchParams();
  const picked = params.get('exchange');
  const exchange = picked ?? (lookups.data?.exchanges[0] ? String(lookups.data.exchanges[0].id) : null);
  // An address may name an exchange gone from the user's reach (a link from the audit log): say so, not an empty list.
  const known = exchange !== null && (!lookups.data || lookups.data.exchanges.some((e) => String(e.id) === exchange));
  const offers = useOffers(known ? Number(exchange) : null);
  // The open pricing drawer names its offer in the address (?offer=<id>), not in a row: rows are drawn anew when the
  // list is read again, and a reload or a shared link opens the same drawer.
  const pricing = params.get('offer');
  const openPricing = (id: number | null) =>
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (id === null) next.delete('offer');
      else next.set('offer', String(id));
      return next;
    });
  return (
    <>
      <PageHeader
        title="Offers and rates"
        description="Rate: units the client gets for one unit given. Limits are in the currency the client gives."
      />
      <Select
        label="Exchange"
        data={exchangeOptions(lookups.data)}
        value={exchange}
        onChange={(v) => setParams(v ? { exchange: v } : {}, { replace: true })}
        w={420}
        maw="100%"
        mb="md"
        allowDeselect={false}
      />
      {exchange === null ? (
        <Text c="dimmed">No exchange yet.</Text>
      ) : !known ? (
        <Text c="dimmed">No exchange #{exchange} in your reach.</Text>
      ) : (
        <QueryState query={offers}>
          {(data) => (
            <>
              <OfferList offers={data.data} onPricing={openPricing} />
              {data.data.length === 0 && <Text c="dimmed">No offers at this exchange.</Text>}
              <SpreadTable offers={data.data} />
              <NewOfferForm exchangeId={Number(exchange)} />
              <PricingDrawer
                offer={data.data.find((o) => String(o.id) === pricing)}
                onClose={() => openPricing(null)}
              />
            </>
          )}
        </QueryState>
      )}
    </>
  );
}
