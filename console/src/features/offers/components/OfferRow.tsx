import { Table } from '@mantine/core';
import type { Offer } from '../../../lib/api/types';
import { useOfferEditor } from '../hooks/use-offer-editor';

/** One offer as a row of the offers table, edited in place. */
export function OfferRow({ offer }: { offer: Offer }) {
  const o = useOfferEditor(offer);
  return (
    <Table.Tr data-offer-id={offer.id}>
      <Table.Td fw={600}>{o.pair}</Table.Td>
      <Table.Td>{o.input('rate', 'Rate')}</Table.Td>
      <Table.Td>{o.input('minAmount', 'Minimum')}</Table.Td>
      <Table.Td>{o.input('maxAmount', 'Maximum')}</Table.Td>
      <Table.Td>{o.active}</Table.Td>
      <Table.Td>{o.save}</Table.Td>
    </Table.Tr>
  );
}
