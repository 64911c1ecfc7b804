import { Table, Text, Title } from '@mantine/core';
import type { Offer } from '../../../lib/api/types';
import { grouped } from '../../../lib/format';
import { usePhone } from '../../../lib/use-phone';
import { spreads } from './offer-pricing';

/**
 * Each pair the exchange offers both ways: what it pays for one unit the client sells, what it asks for one unit
 * the client buys, and the spread between them. Shown only when there is such a pair.
 */
export function SpreadTable({ offers }: { offers: Offer[] }) {
  const rows = spreads(offers);
  // On a phone the spread in the quote currency gives way to its percentage, so the table fits without scrolling.
  const phone = usePhone();
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="spreads">
      <Title order={2} size="h5" id="spreads" mt="lg" mb={4}>
        Buy and sell
      </Title>
      <Text size="xs" c="dimmed" mb="xs">
        Buy: what the exchange gives for 1 unit of the base. Sell: what it asks for 1 unit (1 ÷ the other offer&apos;s
        rate, cut to a few more places). Spread %: what a round trip keeps, (1 − buy × the other rate) × 100, exact.
      </Text>
      <Table aria-label="Buy and sell" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Pair</Table.Th>
            <Table.Th>Buy</Table.Th>
            <Table.Th>Sell</Table.Th>
            {!phone && <Table.Th>Spread</Table.Th>}
            <Table.Th>Spread %</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={`${r.buyOfferId}-${r.sellOfferId}`} data-spread={`${r.base}/${r.quote}`}>
              <Table.Td fw={600}>
                {r.base}/{r.quote}
              </Table.Td>
              <Table.Td data-field="buy">{grouped(r.buy)}</Table.Td>
              <Table.Td data-field="sell">{grouped(r.sell)}</Table.Td>
              {!phone && (
                <Table.Td data-field="spread">
                  {grouped(r.spread)} {r.quote}
                </Table.Td>
              )}
              <Table.Td data-field="spreadPercent">{grouped(r.spreadPercent)} %</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}
