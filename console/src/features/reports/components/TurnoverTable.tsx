import { Paper, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { PartnerText } from '../../../components/PartnerText';
import { money } from '../../../lib/decimal';
import { grouped } from '../../../lib/format';
import { usePhone } from '../../../lib/use-phone';
import type { Lookups } from '../../../lib/api/types';
import type { TurnoverRow } from '../api/reports';

type Label = 'exchange' | 'staff' | 'day' | null;

function labelOf(row: TurnoverRow, label: Label, lookups: Lookups | undefined) {
  if (label === 'day') return row.period;
  if (label === 'exchange')
    return lookups?.exchanges.find((e) => e.id === row.exchangeId)?.name ?? `Exchange #${row.exchangeId}`;
  if (label === 'staff') return row.staff ? (row.staff.email ?? `Staff #${row.staff.id}`) : 'The API or the system';
  return null;
}

const HEAD: Record<Exclude<Label, null>, string> = { exchange: 'Office', staff: 'Cashier', day: 'Day' };

/**
 * Settled orders' figures a row per currency (and per office, cashier or day): received from clients, paid out,
 * income (the spread against the reference rate), orders; exact, with the currency's decimals.
 */
export function TurnoverTable({
  rows,
  label,
  lookups,
  caption,
}: {
  rows: TurnoverRow[];
  label: Label;
  lookups: Lookups | undefined;
  caption: string;
}) {
  const phone = usePhone();
  if (rows.length === 0)
    return (
      <Text c="dimmed" size="sm">
        No order was settled in this period.
      </Text>
    );
  const decimals = (id: number) => lookups?.currencies.find((c) => c.id === id)?.decimals;
  // Six columns do not fit a phone: a card a row there, nothing scrolled sideways.
  if (phone)
    return (
      <Stack gap="xs" data-turnover={label ?? 'currency'} aria-label={caption} role="list">
        {rows.map((r) => (
          <Paper
            withBorder
            p="xs"
            role="listitem"
            key={`${labelOf(r, label, lookups) ?? ''}|${r.currency.id}`}
            data-currency={r.currency.ticker}
          >
            <Text fw={700} size="sm">
              {label && (
                <>
                  {label === 'staff' ? (
                    <PartnerText>{labelOf(r, label, lookups)}</PartnerText>
                  ) : (
                    labelOf(r, label, lookups)
                  )}
                  {' · '}
                </>
              )}
              {r.currency.ticker}
            </Text>
            <SimpleGrid cols={2} spacing={4} verticalSpacing={2}>
              <Text size="sm">Received</Text>
              <Text size="sm" ta="right" data-received>
                {money(r.received, decimals(r.currency.id))}
              </Text>
              <Text size="sm">Paid out</Text>
              <Text size="sm" ta="right" data-paid-out>
                {money(r.paidOut, decimals(r.currency.id))}
              </Text>
              <Text size="sm">Income</Text>
              <Text size="sm" ta="right" data-income>
                {money(r.income, decimals(r.currency.id))}
              </Text>
              <Text size="sm">Orders</Text>
              <Text size="sm" ta="right">
                {grouped(r.orders)}
              </Text>
            </SimpleGrid>
          </Paper>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table striped data-turnover={label ?? 'currency'}>
        <VisuallyHidden component="caption">{caption}</VisuallyHidden>
        <Table.Thead>
          <Table.Tr>
            {label && <Table.Th>{HEAD[label]}</Table.Th>}
            <Table.Th>Currency</Table.Th>
            <Table.Th ta="right">Received</Table.Th>
            <Table.Th ta="right">Paid out</Table.Th>
            <Table.Th ta="right">Income</Table.Th>
            <Table.Th ta="right">Orders</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={`${labelOf(r, label, lookups) ?? ''}|${r.currency.id}`} data-currency={r.currency.ticker}>
              {label && (
                <Table.Td>
                  {label === 'staff' ? (
                    <PartnerText>{labelOf(r, label, lookups)}</PartnerText>
                  ) : (
                    labelOf(r, label, lookups)
                  )}
                </Table.Td>
              )}
              <Table.Td>{r.currency.ticker}</Table.Td>
              <Table.Td ta="right" data-received>
                {money(r.received, decimals(r.currency.id))}
              </Table.Td>
              <Table.Td ta="right" data-paid-out>
                {money(r.paidOut, decimals(r.currency.id))}
              </Table.Td>
              <Table.Td ta="right" data-income>
                {money(r.income, decimals(r.currency.id))}
              </Table.Td>
              <Table.Td ta="right">{grouped(r.orders)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
