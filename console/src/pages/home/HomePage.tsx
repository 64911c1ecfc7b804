import { Stack } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { when } from '../../lib/format';
import { LowPositions } from '../../features/cash';
import { NoExchanges, TodayTurnover, useDashboard } from '../../features/home';
import { useLookups } from '../../features/lookups';
import { TodayCounts, WaitingOrders } from '../../features/orders';
import { WebhooksInTrouble } from '../../features/webhooks';

function startOfToday(): string {
  const d = new Date();
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
}

/** The start of a shift: today's orders by status, the ones waiting longest, and webhooks that need a look. */
export function HomePage() {
  const since = startOfToday();
  const dashboard = useDashboard(since);
  const lookups = useLookups();
  return (
    <>
      <PageHeader title="Home" description={`Today since ${when(since)}`} />
      <NoExchanges />
      <QueryState query={dashboard}>
        {(d) => (
          <Stack>
            {d.orders && <TodayCounts orders={d.orders} />}
            {d.turnover && <TodayTurnover rows={d.turnover} />}
            {d.orders && <WaitingOrders orders={d.orders.waitingLongest} />}
            <LowPositions
              exchanges={(lookups.data?.exchanges ?? []).filter((x) => x.isActive)}
              decimalsOf={(id) => lookups.data?.currencies.find((c) => c.id === id)?.decimals}
            />
            {d.webhooksInTrouble && <WebhooksInTrouble hooks={d.webhooksInTrouble} />}
          </Stack>
        )}
      </QueryState>
    </>
  );
}
