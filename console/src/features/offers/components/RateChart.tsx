import '@mantine/charts/styles.css';
import { LineChart } from '@mantine/charts';
import { SegmentedControl, Text } from '@mantine/core';
import { useState } from 'react';
import { QueryState } from '../../../components/QueryState';
import type { Offer } from '../../../lib/api/types';
import { decimal } from '../../../lib/format';
import { useOfferRates } from '../hooks/use-offers';

const PERIODS = [
  { value: '1', label: '24 h' },
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
];

const stamp = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

/**
 * The rates the offer was given over a period, with the reference each was made from. Numbers here only place the
 * line; the figures shown in the tooltip are the API's decimals, as sent.
 */
export default function RateChart({ offer }: { offer: Offer }) {
  const [days, setDays] = useState('1');
  const rates = useOfferRates(offer.id, Number(days));
  const pair = `${offer.currency1.code} → ${offer.currency2.code}`;
  return (
    <div data-rate-chart={offer.id}>
      <SegmentedControl
        data={PERIODS}
        value={days}
        onChange={setDays}
        aria-label="Period"
        size="xs"
        mb="sm"
        fullWidth
      />
      <QueryState query={rates}>
        {(history) =>
          history.data.length === 0 ? (
            <Text c="dimmed" size="sm">
              No rate was applied in this period.
            </Text>
          ) : (
            <>
              <LineChart
                h={260}
                data={history.data.map((p) => ({
                  at: stamp.format(new Date(p.at)),
                  rate: Number(p.rate),
                  reference: p.referenceRate === undefined ? null : Number(p.referenceRate),
                  rateText: decimal(p.rate),
                  referenceText: p.referenceRate === undefined ? '—' : decimal(p.referenceRate),
                }))}
                dataKey="at"
                series={[
                  { name: 'rate', label: `Rate (${pair})`, color: 'blue.6' },
                  { name: 'reference', label: 'Reference', color: 'gray.6', strokeDasharray: '5 5' },
                ]}
                curveType="stepAfter"
                withLegend
                withDots={history.data.length < 60}
                yAxisProps={{ domain: ['auto', 'auto'], width: 80 }}
                valueFormatter={(v) => String(v)}
                aria-label={`Rate of ${pair} and its reference`}
              />
              {history.truncated && (
                <Text size="xs" c="dimmed">
                  Only the last {history.data.length} rates of the period are drawn.
                </Text>
              )}
            </>
          )
        }
      </QueryState>
    </div>
  );
}
