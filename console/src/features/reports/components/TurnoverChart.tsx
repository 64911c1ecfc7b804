import { BarChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import type { TurnoverRow } from '../api/reports';

const COLORS = [
  'teal.7',
  'blue.7',
  'orange.7',
  'grape.7',
  'red.7',
  'cyan.7',
  'lime.8',
  'pink.7',
  'indigo.7',
  'yellow.8',
];

/**
 * What clients gave each day, a bar a day stacked by currency (groupBy=day). The bars are drawn from numbers (a chart
 * needs them); every figure read as a figure is in the tables, exact.
 */
export function TurnoverChart({ rows }: { rows: TurnoverRow[] }) {
  const tickers = [...new Set(rows.map((r) => r.currency.ticker))].sort();
  const days = [...new Set(rows.map((r) => r.period ?? ''))].sort();
  if (days.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No order was settled in this period.
      </Text>
    );
  const data = days.map((day) => ({
    day,
    ...Object.fromEntries(rows.filter((r) => r.period === day).map((r) => [r.currency.ticker, Number(r.received)])),
  }));
  return (
    <BarChart
      h={280}
      data={data}
      dataKey="day"
      type="stacked"
      withLegend
      legendProps={{ verticalAlign: 'bottom' }}
      series={tickers.map((t, i) => ({ name: t, color: COLORS[i % COLORS.length]! }))}
      role="img"
      aria-label={`Received per day, by currency: ${tickers.join(', ')}`}
      data-turnover-chart
    />
  );
}
