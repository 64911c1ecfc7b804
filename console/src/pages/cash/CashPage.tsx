import { Select, Stack, Text } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { can, hasRole, useMe } from '../../lib/auth/me';
import { CashForms, Ledger, PositionsTable, usePositions } from '../../features/cash';
import { exchangeOptions, useLookups } from '../../features/lookups';
import { useStaff } from '../../features/staff';
import { routeId } from '../../lib/route-id';

/**
 * An exchange's cash (admins of its branch, its operators): each tracked currency's balance, what open orders hold,
 * what is available, and its ledger; deposits, withdrawals, counts, transfers and watermarks with cash:write. The
 * exchange, the ledger's currency and its page are in the address (?exchange=1&currency=2&page=3), so the home
 * page links to a position and a reload keeps it.
 */
export function CashPage() {
  const lookups = useLookups();
  const me = useMe();
  const [params, setParams] = useSearchParams();
  const exchanges = lookups.data?.exchanges ?? [];
  const exchange = routeId(params.get('exchange') ?? undefined) ?? exchanges[0]?.id ?? null;
  const known = exchange !== null && (!lookups.data || exchanges.some((e) => e.id === exchange));
  const name = exchanges.find((e) => e.id === exchange)?.name;
  return (
    <>
      <PageHeader
        title="Cash"
        description={
          name
            ? `${name}: the cash at hand, what open orders hold of it, and every movement`
            : 'The cash at hand of each exchange'
        }
      />
      <Select
        label="Exchange"
        data={exchangeOptions(lookups.data)}
        value={exchange === null ? null : String(exchange)}
        onChange={(v) => setParams(v ? { exchange: v } : {}, { replace: true })}
        w={420}
        maw="100%"
        mb="md"
        allowDeselect={false}
      />
      {/* Loading until the exchanges are known: the page never shows nothing while it waits. */}
      {lookups.isPending ? (
        <QueryState query={lookups}>{() => null}</QueryState>
      ) : exchange === null ? (
        <Text c="dimmed">No exchange in your reach.</Text>
      ) : !known ? (
        <Text c="dimmed">No exchange #{exchange} in your reach.</Text>
      ) : (
        <ExchangeCash
          key={exchange}
          exchangeId={exchange}
          writes={can(me.data, 'cash:write')}
          admin={hasRole(me.data, 'admin', 'superadmin')}
          meId={me.data?.id}
        />
      )}
    </>
  );
}

function ExchangeCash({
  exchangeId,
  writes,
  admin,
  meId,
}: {
  exchangeId: number;
  writes: boolean;
  admin: boolean;
  meId: number | undefined;
}) {
  const positions = usePositions(exchangeId);
  const lookups = useLookups();
  // Admins list their staff, so the ledger names who moved cash by login; an operator sees "you" or a number.
  const staff = useStaff({ enabled: admin });
  const names = new Map((staff.data?.data ?? []).map((u) => [u.id, u.email]));
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const set = (change: Record<string, string | null>) =>
    setParams(
      (p) => {
        for (const [k, v] of Object.entries(change)) {
          if (v === null) p.delete(k);
          else p.set(k, v);
        }
        if (!p.has('exchange')) p.set('exchange', String(exchangeId));
        return p;
      },
      { replace: true },
    );
  return (
    <QueryState query={positions}>
      {({ data }) => {
        const asked = routeId(params.get('currency') ?? undefined);
        const currency = data.find((p) => p.currency.id === asked)?.currency ?? data[0]?.currency ?? null;
        return (
          <Stack>
            <PositionsTable
              positions={data}
              lookups={lookups.data}
              selected={currency?.id ?? null}
              onSelect={(id) => set({ currency: String(id), page: null })}
            />
            {writes ? (
              <CashForms
                exchangeId={exchangeId}
                positions={data}
                lookups={lookups.data}
                currencyId={currency?.id ?? null}
              />
            ) : (
              <Text size="sm" c="dimmed" data-no-cash-write>
                You see the figures; recording cash needs the cash:write permission, which an admin of your branch
                grants.
              </Text>
            )}
            {currency && (
              <Ledger
                exchangeId={exchangeId}
                currency={currency}
                decimals={lookups.data?.currencies.find((c) => c.id === currency.id)?.decimals}
                page={page}
                onPage={(n) => set({ page: n === 1 ? null : String(n) })}
                meId={meId}
                names={names}
              />
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
