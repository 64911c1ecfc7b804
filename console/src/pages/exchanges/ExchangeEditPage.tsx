import { Anchor } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { LoadFailed, QueryState } from '../../components/QueryState';
import { routeId } from '../../lib/route-id';
import { ExchangeForm, useExchange } from '../../features/exchanges';

const AllExchanges = () => (
  <Anchor component={Link} to="/exchanges" size="sm">
    All exchanges
  </Anchor>
);

export function ExchangeEditPage() {
  const id = routeId(useParams().id);
  return id === null ? (
    <>
      <LoadFailed message="Exchange not found" />
      <AllExchanges />
    </>
  ) : (
    <ExchangeEdit id={id} />
  );
}

function ExchangeEdit({ id }: { id: number }) {
  const exchange = useExchange(id);
  return (
    <>
      <QueryState query={exchange}>
        {(x) => (
          <>
            <PageHeader title={x.name} description={`${x.address}${x.city ? `, ${x.city}` : ''}`}>
              <Anchor component={Link} to={`/cash?exchange=${x.id}`} size="sm">
                Cash
              </Anchor>
              <AllExchanges />
            </PageHeader>
            <ExchangeForm key={x.updatedAt} exchange={x} withBranch={false} />
          </>
        )}
      </QueryState>
      {/* A missing exchange, or another branch's: a way back to the list. */}
      {exchange.isError && <AllExchanges />}
    </>
  );
}
