import { Anchor, Badge, Paper, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { Pager } from '../../../components/Pager';
import { QueryState } from '../../../components/QueryState';
import { PartnerText } from '../../../components/PartnerText';
import type { CashMovement } from '../../../lib/api/types';
import { money, signedAmount } from '../../../lib/decimal';
import { when } from '../../../lib/format';
import { LEDGER_PAGE, useLedger } from '../hooks/use-cash';

export const KIND_LABEL: Record<CashMovement['kind'], string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  count: 'Count',
  transferIn: 'Transfer in',
  transferOut: 'Transfer out',
  orderSettled: 'Order settled',
};

const KIND_COLOR: Record<CashMovement['kind'], string> = {
  deposit: 'teal',
  withdrawal: 'orange',
  count: 'gray',
  transferIn: 'blue',
  transferOut: 'grape',
  orderSettled: 'indigo',
};

/**
 * Who made a movement: the viewer itself, a staff user by its login where the viewer may list staff (`names`),
 * else by its number; a settled order's is the system's.
 */
function who(m: CashMovement, meId: number | undefined, names: Map<number, string>): string {
  if (m.staffId === null) return 'the system';
  if (m.staffId === meId) return 'you';
  return names.get(m.staffId) ?? `staff #${m.staffId}`;
}

/** A position's ledger, newest first and paged: every change of its balance, signed, with the balance it left. */
export function Ledger({
  exchangeId,
  currency,
  decimals,
  page,
  onPage,
  meId,
  names,
}: {
  exchangeId: number;
  currency: { id: number; ticker: string };
  /** The currency's decimals, to which its figures are written. */
  decimals: number | undefined;
  page: number;
  onPage: (page: number) => void;
  meId: number | undefined;
  names: Map<number, string>;
}) {
  const ledger = useLedger(exchangeId, currency.id, page);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ledger-title">
      <Title order={2} size="h4" id="ledger-title" mb="sm">
        Ledger: {currency.ticker}
      </Title>
      <QueryState query={ledger}>
        {(data) =>
          data.data.length === 0 ? (
            <Text size="sm">No movement yet.</Text>
          ) : (
            <>
              <Table.ScrollContainer minWidth={820}>
                <Table aria-label={`Ledger of ${currency.ticker}`} data-ledger={currency.ticker}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>When</Table.Th>
                      <Table.Th>Kind</Table.Th>
                      <Table.Th ta="right">Amount</Table.Th>
                      <Table.Th ta="right">Balance after</Table.Th>
                      <Table.Th>Who</Table.Th>
                      <Table.Th>Why</Table.Th>
                      <Table.Th>Order</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.data.map((m) => (
                      <Table.Tr key={m.id} data-movement={m.kind}>
                        <Table.Td>{when(m.createdAt)}</Table.Td>
                        <Table.Td>
                          <Badge color={KIND_COLOR[m.kind]} variant="light">
                            {KIND_LABEL[m.kind]}
                          </Badge>
                        </Table.Td>
                        <Table.Td ta="right" data-field="amount">
                          {signedAmount(m.amount, decimals)}
                        </Table.Td>
                        <Table.Td ta="right" data-field="balanceAfter">
                          {money(m.balanceAfter, decimals)}
                        </Table.Td>
                        <Table.Td>{who(m, meId, names)}</Table.Td>
                        <Table.Td>{m.reason ? <PartnerText>{m.reason}</PartnerText> : '—'}</Table.Td>
                        <Table.Td>
                          {m.orderId === null ? (
                            '—'
                          ) : (
                            <Anchor component={Link} to={`/orders/${m.orderId}`}>
                              #{m.orderId}
                            </Anchor>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Pager total={data.meta.total} pageSize={LEDGER_PAGE} page={page} onChange={onPage} />
            </>
          )
        }
      </QueryState>
    </Paper>
  );
}
