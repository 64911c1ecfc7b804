import { BarChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import type { TurnoverRow } from '../api/reports';
import { addDays } from './periods';

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
export function TurnoverChart({ rows, from, to }: { rows: TurnoverRow[]; from: string; to: string }) {
  const tickers = [...new Set(rows.map((r) => r.currency.ticker))].sort();
  if (rows.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No order was settled in this period.
      </Text>
    );
  const data = daysOf(from, to, rows).map((day) => ({
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

/** Every day of the period, so a day without settled orders shows as a gap (up to 62 bars; beyond, the days with rows). */
function daysOf(from: string, to: string, rows: TurnoverRow[]): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    if (days.length === 62) return [...new Set(rows.map((r) => r.period ?? ''))].sort();
    days.push(day);
  }
  return days;
}
