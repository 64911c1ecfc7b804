import { Table, VisuallyHidden } from '@mantine/core';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { nameOf, useLookups } from '../../features/lookups';
import { NewPaymentMethodForm, PaymentMethodRow, usePaymentMethods } from '../../features/payment-methods';

/** How clients pay and get paid: branch-wide or at one exchange, for any currency or one. */
export function PaymentMethodsPage() {
  const lookups = useLookups();
  const methods = usePaymentMethods();
  const currency = (id: number | null) =>
    id === null ? 'Any' : (lookups.data?.currencies.find((c) => c.id === id)?.code ?? `#${id}`);
  return (
    <>
      <PageHeader title="Payment methods" description="Orders name these as how the client pays and how it is paid." />
      <QueryState query={methods}>
        {(data) => (
          <Table.ScrollContainer minWidth={760}>
            <Table aria-label="Payment methods">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Exchange</Table.Th>
                  <Table.Th>Currency</Table.Th>
                  <Table.Th>Active</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.data.map((m) => (
                  <PaymentMethodRow
                    key={m.id}
                    method={m}
                    currency={currency(m.currencyId)}
                    where={m.exchangeId === null ? 'Every exchange' : nameOf(lookups.data?.exchanges, m.exchangeId)}
                  />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <NewPaymentMethodForm />
    </>
  );
}
