import '@mantine/charts/styles.css';
import { Group, SegmentedControl, Select, Stack, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { exchangeOptions, useLookups } from '../../features/lookups';
import {
  browserZone,
  periodDays,
  ReportSection,
  todayIn,
  TurnoverChart,
  TurnoverTable,
  useTurnover,
  zones,
  type GroupBy,
  type Period,
  type TurnoverQuery,
} from '../../features/reports';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The turnover of settled orders over a period, in a time zone (the browser's unless another is picked: the days
 * are the office's when the manager sits in it): received per day by currency, totals per currency, per office and
 * per cashier; each part downloadable as CSV. An operator sees its own exchanges' figures (the API's scope).
 */
export function ReportsPage() {
  const lookups = useLookups();
  const [tz, setTz] = useState(browserZone);
  const [period, setPeriod] = useState<Period>('week');
  const today = todayIn(tz);
  const [custom, setCustom] = useState(() => periodDays('month', today));
  const [exchange, setExchange] = useState<string | null>(null);
  const days = period === 'custom' ? custom : periodDays(period, today);
  const valid = DATE.test(days.from) && DATE.test(days.to) && days.from <= days.to;
  const query = (groupBy: GroupBy): TurnoverQuery => ({
    ...(valid ? days : periodDays('today', today)),
    groupBy,
    tz,
    exchangeId: exchange === null ? null : Number(exchange),
  });
  return (
    <>
      <PageHeader
        title="Reports"
        description="Turnover of the orders settled in the period, by the days of the time zone."
      />
      <Group mb="md" align="flex-end" wrap="wrap">
        <SegmentedControl
          aria-label="Period"
          value={period}
          onChange={(v) => setPeriod(v as Period)}
          data={[
            { value: 'today', label: 'Today' },
            { value: 'week', label: 'This week' },
            { value: 'month', label: 'This month' },
            { value: 'custom', label: 'Custom' },
          ]}
        />
        {period === 'custom' && (
          <>
            <TextInput
              type="date"
              label="From"
              value={custom.from}
              max={custom.to}
              onChange={(e) => setCustom({ ...custom, from: e.currentTarget.value })}
              error={valid ? undefined : 'The first day must not be after the last'}
            />
            <TextInput
              type="date"
              label="To"
              value={custom.to}
              min={custom.from}
              onChange={(e) => setCustom({ ...custom, to: e.currentTarget.value })}
            />
          </>
        )}
        <Select
          label="Time zone"
          searchable
          allowDeselect={false}
          data={zones()}
          value={tz}
          onChange={(v) => v && setTz(v)}
          w={240}
        />
        <Select
          label="Exchange"
          placeholder="Every exchange"
          clearable
          data={exchangeOptions(lookups.data)}
          value={exchange}
          onChange={setExchange}
          w={240}
        />
      </Group>
      <Stack>
        <Part title="Received per day, by currency" query={query('day')}>
          {(rows) => <TurnoverChart rows={rows} from={query('day').from} to={query('day').to} />}
        </Part>
        <Part title="Per currency" query={query('currency')}>
          {(rows) => <TurnoverTable rows={rows} label={null} lookups={lookups.data} caption="Turnover per currency" />}
        </Part>
        <Part title="Per office" query={query('exchange')}>
          {(rows) => (
            <TurnoverTable rows={rows} label="exchange" lookups={lookups.data} caption="Turnover per office" />
          )}
        </Part>
        <Part title="Per cashier" query={query('staff')}>
          {(rows) => <TurnoverTable rows={rows} label="staff" lookups={lookups.data} caption="Turnover per cashier" />}
        </Part>
      </Stack>
    </>
  );
}

type Rows = Parameters<typeof TurnoverTable>[0]['rows'];

function Part({
  title,
  query,
  children,
}: {
  title: string;
  query: TurnoverQuery;
  children: (rows: Rows) => ReactNode;
}) {
  const report = useTurnover(query);
  return (
    <ReportSection title={title} query={query}>
      <QueryState query={report}>{(r) => children(r.data)}</QueryState>
    </ReportSection>
  );
}
