import { Button, Group, Select, Tabs, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import type { OrderChange, OrderStatus } from '../../lib/api/types';
import { can, useMe } from '../../lib/auth/me';
import { exchangeOptions, useLookups } from '../../features/lookups';
import {
  BoardColumns,
  ExportOrdersButton,
  LiveBadge,
  OrderTable,
  PAGE_SIZE,
  STATUSES,
  STATUS_LABEL,
  useBackToHere,
  useOrderList,
  useOrderSearch,
  useOrderStream,
} from '../../features/orders';

const FRESH_MS = 30_000;

/**
 * What the board shows lives in its address (`/orders?q=Maria`, `?exchange=2&view=all&status=SUCCESS&page=3`), so
 * Back from an order, a reload or a shared link brings the same view. Changes replace the entry: Back leaves the board.
 */
function useBoardParams() {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [name, value] of Object.entries(changes)) {
            if (value === null || value === '') next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { params, set };
}

/** The counter's view: open orders in queues that update by themselves, every order by status, and search. */
export function OrderBoardPage() {
  const lookups = useLookups();
  const me = useMe();
  const { params, set } = useBoardParams();
  const q = (params.get('q') ?? '').trim();
  const exchange = params.get('exchange');
  const view = params.get('view') === 'all' ? 'all' : 'board';
  const [text, setText] = useState(q);
  const [typed] = useDebouncedValue(text.trim(), 250);
  // What the address says was typed last: typing writes to it, and an address that changes otherwise (Back, the
  // menu's "Orders") rewrites the box.
  const written = useRef(q);
  // Only a change of what was typed writes: `set` is new after a navigation, when the debounced text may still hold
  // what the address has just dropped (the menu's "Orders" would get the old search back).
  const lastTyped = useRef(typed);
  useEffect(() => {
    if (typed === lastTyped.current) return;
    lastTyped.current = typed;
    if (typed === written.current) return;
    written.current = typed;
    set({ q: typed });
  }, [typed, set]);
  useEffect(() => {
    if (q === written.current) return;
    written.current = q;
    setText(q);
  }, [q]);
  useBackToHere();

  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const onChange = useCallback((c: OrderChange) => {
    if (c.fromStatus !== null) return;
    setFresh((s) => new Set(s).add(c.orderId));
    setTimeout(
      () =>
        setFresh((s) => {
          const next = new Set(s);
          next.delete(c.orderId);
          return next;
        }),
      FRESH_MS,
    );
  }, []);
  const stream = useOrderStream(onChange);
  const exchangeId = exchange === null || !/^\d+$/.test(exchange) ? null : Number(exchange);

  return (
    <>
      <PageHeader title="Orders" description="New orders and every change appear here by themselves.">
        <LiveBadge state={stream} />
        {can(me.data, 'orders:write') && (
          <Button component={Link} to="/orders/new" leftSection={<IconPlus size={16} />}>
            New counter order
          </Button>
        )}
      </PageHeader>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput
          label="Search orders"
          placeholder="Order id, hashed id, client name, email or phone"
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={420}
          maw="100%"
          type="search"
        />
        <Select
          label="Exchange"
          placeholder="Every exchange"
          data={exchangeOptions(lookups.data)}
          value={exchangeId === null ? null : String(exchangeId)}
          onChange={(v) => set({ exchange: v, page: null })}
          clearable
          w={240}
        />
      </Group>
      {q ? (
        <SearchResults q={q} />
      ) : (
        <Tabs value={view} onChange={(v) => set({ view: v === 'all' ? 'all' : null })} keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="board">Board</Tabs.Tab>
            <Tabs.Tab value="all">All orders</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="board">
            <BoardColumns exchangeId={exchangeId} fresh={fresh} />
          </Tabs.Panel>
          <Tabs.Panel value="all">
            <AllOrders exchangeId={exchangeId} />
          </Tabs.Panel>
        </Tabs>
      )}
    </>
  );
}

function SearchResults({ q }: { q: string }) {
  const found = useOrderSearch(q);
  return (
    <QueryState query={found}>
      {(data) => <OrderTable orders={data.data} caption={`Orders matching ${q}`} />}
    </QueryState>
  );
}

function AllOrders({ exchangeId }: { exchangeId: number | null }) {
  const { params, set } = useBoardParams();
  const asked = params.get('status');
  const status = asked && (STATUSES as readonly string[]).includes(asked) ? (asked as OrderStatus) : null;
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const list = useOrderList(status, exchangeId, (page - 1) * PAGE_SIZE);
  return (
    <>
      <Group mb="sm" align="flex-end" wrap="wrap">
        <Select
          label="Status"
          placeholder="Every status"
          data={STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
          value={status}
          onChange={(v) => set({ status: v, page: null })}
          clearable
          w={260}
        />
        <ExportOrdersButton filters={{ status, exchangeId }} />
      </Group>
      <QueryState query={list}>
        {(data) => (
          <>
            <OrderTable orders={data.data} caption="All orders" />
            <Pager
              total={data.meta.total}
              pageSize={PAGE_SIZE}
              page={page}
              onChange={(p) => set({ page: p === 1 ? null : String(p) })}
            />
          </>
        )}
      </QueryState>
    </>
  );
}
