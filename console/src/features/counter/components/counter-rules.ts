import { isDecimal, places } from '../../../lib/decimal';
import type { Lookups } from '../../../lib/api/types';
import type { EstimateRequest } from '../api/counter';

export interface CounterFields {
  exchangeId: string | null;
  currency1Id: string | null;
  currency2Id: string | null;
  /** `source`: the amount is what the client gives; `dest`: what the client receives. */
  direction: 'source' | 'dest';
  amount: string;
  clientMode: 'existing' | 'new';
  clientId: string | null;
  clientLabel: string;
  newClient: { firstName: string; lastName: string; email: string; phone: string };
  paymentMethodSourceId: string | null;
  paymentMethodDestId: string | null;
}

/**
 * What is wrong with an amount as typed, before the server is asked: a plain positive decimal, no more decimals
 * than its currency keeps, and digits a JSON number carries exactly (the API takes amounts as JSON numbers).
 */
export function amountProblem(text: string, decimals: number | undefined): string | null {
  const v = text.trim();
  if (v === '') return 'Enter an amount';
  if (!isDecimal(v)) return 'Write a plain number, such as 100 or 100.50';
  if (/^0+(\.0+)?$/.test(v)) return 'Must be more than 0';
  if (decimals !== undefined && places(v) > decimals)
    return decimals === 0 ? 'This currency has no decimals' : `At most ${decimals} decimals`;
  if (v.replace(/^0+|\./g, '').length > 15) return 'At most 15 digits';
  return null;
}

/** The estimate the form asks for, or null while something it needs is missing or wrong. */
export function estimateRequest(v: CounterFields, lookups: Lookups | undefined): EstimateRequest | null {
  if (!v.exchangeId || !v.currency1Id || !v.currency2Id || v.currency1Id === v.currency2Id) return null;
  const ticker = v.direction === 'source' ? v.currency1Id : v.currency2Id;
  const decimals = lookups?.currencies.find((c) => String(c.id) === ticker)?.decimals;
  if (amountProblem(v.amount, decimals) !== null) return null;
  return {
    exchangeId: Number(v.exchangeId),
    sourceCurrencyId: Number(v.currency1Id),
    destCurrencyId: Number(v.currency2Id),
    amount: Number(v.amount.trim()),
    direction: v.direction,
  };
}

/** The API's names for the order's and the client's fields, placed on the form's. */
export const PLACES: Record<string, keyof CounterFields | `newClient.${string}`> = {
  'cashbox.id': 'exchangeId',
  cashbox: 'exchangeId',
  'currency1.id': 'currency1Id',
  'currency2.id': 'currency2Id',
  clientAmount: 'amount',
  exchangeAmount: 'amount',
  'user.id': 'clientId',
  'paymentMethodSource.id': 'paymentMethodSourceId',
  'paymentMethodDest.id': 'paymentMethodDestId',
  firstName: 'newClient.firstName',
  lastName: 'newClient.lastName',
  email: 'newClient.email',
  phone: 'newClient.phone',
};
