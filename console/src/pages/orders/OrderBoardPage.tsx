import { Badge, Group, Select, Tabs, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import type { OrderChange, OrderStatus } from '../../api/types';
import { Pager } from '../../components/Pager';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { exchangeOptions, useLookups } from '../../components/lookups';
import { BoardColumns } from './BoardColumns';
import { OrderTable } from './OrderTable';
import { STATUSES, STATUS_LABEL } from './statuses';
import { PAGE_SIZE, useOrderList, useOrderSearch } from './use-orders';
import { useOrderStream, type StreamState } from './use-order-stream';

const FRESH_MS = 30_000;

function LiveBadge({ state }: { state: StreamState }) {
  const [color, label] = state === 'live' ? ['teal', 'Live'] : state === 'connecting' ? ['gray', 'Connecting…'] : ['orange', 'Reconnecting…'];
  return <Badge color={color} variant="dot" role="status" aria-live="polite" data-stream={state}>{label}</Badge>;
}

/** The counter's view: open orders in queues that update by themselves, every order by status, and search. */
export function OrderBoardPage() {
  const lookups = useLookups();
  const [exchange, setExchange] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [q] = useDebouncedValue(text.trim(), 250);
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const onChange = useCallback((c: OrderChange) => {
    if (c.fromStatus !== null) return;
    setFresh((s) => new Set(s).add(c.orderId));
    setTimeout(() => setFresh((s) => { const next = new Set(s); next.delete(c.orderId); return next; }), FRESH_MS);
  }, []);
  const stream = useOrderStream(onChange);
  const exchangeId = exchange === null ? null : Number(exchange);

  return (
    <>
      <PageHeader title="Orders" description="New orders and every change appear here by themselves.">
        <LiveBadge state={stream} />
      </PageHeader>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput label="Search orders" placeholder="Order id, hashed id, client name, email or phone" leftSection={<IconSearch size={16} />}
          value={text} onChange={(e) => setText(e.currentTarget.value)} w={420} maw="100%" type="search" />
        <Select label="Exchange" placeholder="Every exchange" data={exchangeOptions(lookups.data)} value={exchange} onChange={setExchange} clearable w={240} />
      </Group>
      {q ? <SearchResults q={q} /> : (
        <Tabs defaultValue="board" keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="board">Board</Tabs.Tab>
            <Tabs.Tab value="all">All orders</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="board"><BoardColumns exchangeId={exchangeId} fresh={fresh} /></Tabs.Panel>
          <Tabs.Panel value="all"><AllOrders exchangeId={exchangeId} /></Tabs.Panel>
        </Tabs>
      )}
    </>
  );
}

function SearchResults({ q }: { q: string }) {
  const found = useOrderSearch(q);
  return <QueryState query={found}>{(data) => <OrderTable orders={data.data} caption={`Orders matching ${q}`} />}</QueryState>;
}

function AllOrders({ exchangeId }: { exchangeId: number | null }) {
  const [status, setStatus] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const list = useOrderList(status as OrderStatus | null, exchangeId, (page - 1) * PAGE_SIZE);
  return (
    <>
      <Select label="Status" placeholder="Every status" data={STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
        value={status} onChange={(v) => { setStatus(v); setPage(1); }} clearable w={260} mb="sm" />
      <QueryState query={list}>
        {(data) => (
          <>
            <OrderTable orders={data.data} caption="All orders" />
            <Pager total={data.meta.total} pageSize={PAGE_SIZE} page={page} onChange={setPage} />
          </>
        )}
      </QueryState>
    </>
  );
}
