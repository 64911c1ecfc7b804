import { Loader, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { money } from '../../../lib/decimal';
import { decimal } from '../../../lib/format';
import type { EstimateRequest } from '../api/counter';
import type { estimate as getEstimate } from '../api/counter';

type Estimate = Awaited<ReturnType<typeof getEstimate>>;

/**
 * The server's figures for what is typed, as the order would be priced now: the amounts exactly as the API gives them
 * (only zeros added up to the currency's decimals), never worked out here.
 */
export function EstimateLine({
  asked,
  estimate,
}: {
  asked: EstimateRequest | null;
  estimate: UseQueryResult<Estimate>;
}) {
  return (
    <div aria-live="polite" data-estimate>
      {asked === null ? (
        <Text size="sm" c="dimmed">
          Pick the exchange and both currencies and type an amount to see the estimate.
        </Text>
      ) : estimate.isError ? (
        <Text size="sm" c="red.8" data-estimate-error>
          {estimate.error.message}
        </Text>
      ) : estimate.data ? (
        <Text size="sm" data-estimate-figures>
          Estimate: the client gives{' '}
          <strong data-estimate-source>
            {money(estimate.data.sourceAmount, undefined)} {estimate.data.sourceCurrency.ticker}
          </strong>{' '}
          and receives{' '}
          <strong data-estimate-dest>
            {money(estimate.data.destAmount, undefined)} {estimate.data.destCurrency.ticker}
          </strong>{' '}
          at a rate of {decimal(estimate.data.rate)}
          {estimate.isFetching && <Loader size="xs" ml="xs" aria-label="Updating the estimate" />}
        </Text>
      ) : (
        <Loader size="sm" aria-label="Asking for the estimate" />
      )}
    </div>
  );
}
