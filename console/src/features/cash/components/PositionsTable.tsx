import { Badge, Button, Table, Text } from '@mantine/core';
import type { CashPosition, Lookups } from '../../../lib/api/types';
import { compare, money } from '../../../lib/decimal';
import { when } from '../../../lib/format';
import { isLow } from '../hooks/use-cash';

/** Each tracked currency's cash: balance, what open orders hold, what is left to pay out, and its watermark. */
export function PositionsTable({
  positions,
  selected,
  onSelect,
  lookups,
}: {
  positions: CashPosition[];
  lookups: Lookups | undefined;
  selected: number | null;
  onSelect: (currencyId: number) => void;
}) {
  const places = (p: CashPosition) => lookups?.currencies.find((c) => c.id === p.currency.id)?.decimals;
  if (positions.length === 0)
    return (
      <Text size="sm" data-positions="none">
        No currency is tracked here yet: a first deposit or count starts tracking it. Until then orders in it are not
        checked against the cash at hand.
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label="Cash positions">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Currency</Table.Th>
            <Table.Th ta="right">Balance</Table.Th>
            <Table.Th ta="right">Held</Table.Th>
            <Table.Th ta="right">Available</Table.Th>
            <Table.Th ta="right">Low watermark</Table.Th>
            <Table.Th>Updated</Table.Th>
            <Table.Th>Ledger</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {positions.map((p) => (
            <Table.Tr key={p.currency.id} data-position={p.currency.ticker}>
              <Table.Th scope="row">{p.currency.ticker}</Table.Th>
              <Table.Td ta="right" data-field="balance">
                {money(p.balance, places(p))}
              </Table.Td>
              <Table.Td ta="right" data-field="held">
                {money(p.held, places(p))}
              </Table.Td>
              <Table.Td ta="right" data-field="available">
                {money(p.available, places(p))}{' '}
                {isLow(p) && (
                  <Badge color="orange" variant="light" ml={4} data-low>
                    low
                  </Badge>
                )}
              </Table.Td>
              <Table.Td ta="right" data-field="lowWatermark">
                {compare(p.lowWatermark, 0) === 0 ? '—' : money(p.lowWatermark, places(p))}
              </Table.Td>
              <Table.Td>{when(p.updatedAt)}</Table.Td>
              <Table.Td>
                <Button
                  size="compact-sm"
                  variant={selected === p.currency.id ? 'light' : 'subtle'}
                  aria-pressed={selected === p.currency.id}
                  aria-label={`Ledger of ${p.currency.ticker}`}
                  onClick={() => onSelect(p.currency.id)}
                >
                  Ledger
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
