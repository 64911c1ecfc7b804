import { useQuery } from '@tanstack/react-query';
import { useSave } from '../../../lib/forms/use-save';
import { lookupKeys } from '../../lookups';
import { createCurrency, listCurrencies, updateCurrency, type CurrencyBody } from '../api/currencies';
import { currencyKeys } from '../api/keys';

export function useCurrencies() {
  return useQuery({ queryKey: currencyKeys.list(), queryFn: listCurrencies });
}

/** A new currency (`id` null) or a change to one. */
export function useSaveCurrency(id: number | null) {
  return useSave(
    (body: CurrencyBody) => (id === null ? createCurrency(body) : updateCurrency(id, body)),
    [currencyKeys.all, lookupKeys.all],
    (c) => `${c.ticker}: saved`,
  );
}
