import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { CounterOrderForm } from '../../features/counter';
import { useLookups } from '../../features/lookups';

/** A cashier's order for a client at the counter, priced by the server as it is typed, printed when created. */
export function CounterOrderPage() {
  const lookups = useLookups();
  return (
    <>
      <PageHeader
        title="New counter order"
        description="For a client at the counter: priced as a partner's order, with the receipt printed when it is created."
      />
      <QueryState query={lookups}>{(l) => <CounterOrderForm lookups={l} />}</QueryState>
    </>
  );
}
