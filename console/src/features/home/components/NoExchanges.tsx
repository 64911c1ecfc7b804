import { Alert } from '@mantine/core';
import { useMe } from '../../../lib/auth/me';

/** An operator given no exchange (or moved to a branch where it has none yet) sees only empty pages: say why. */
export function NoExchanges() {
  const me = useMe();
  if (me.data?.role !== 'operator' || me.data.exchangeIds === null || me.data.exchangeIds.length > 0) return null;
  return (
    <Alert color="orange" title="You serve no exchange yet" mb="md" data-notice="no-exchanges">
      Your account is not assigned to any exchange, so you see no orders. Ask an admin of your branch to assign you one
      (Staff, Exchanges served).
    </Alert>
  );
}
