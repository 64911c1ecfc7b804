import { compare, isDecimal, places } from '../../../lib/decimal';
import type { CashPosition, Lookups } from '../../../lib/api/types';

/**
 * What the API would say of an amount, said before it is sent: a plain decimal number, more than 0 (a count may be
 * 0: an empty drawer), with no more decimals than its currency keeps.
 */
export function amountProblem(text: string, decimals: number | undefined, { zero = false } = {}): string | null {
  const value = text.trim();
  if (value === '') return 'Enter an amount';
  if (!isDecimal(value)) return 'A number such as 1250.50: digits and a point, no grouping';
  if (!zero && compare(value, 0) <= 0) return 'Must be more than 0';
  if (decimals !== undefined && places(value) > decimals)
    return decimals === 0 ? 'Whole units only: this currency has no decimals' : `At most ${decimals} decimals`;
  return null;
}

export interface CurrencyChoice {
  id: number;
  ticker: string;
  decimals: number | undefined;
  position: CashPosition | undefined;
}

/**
 * The currencies a form offers: the exchange's tracked positions first, then (where a first movement may start
 * one) every other currency of the network.
 */
export function currencyChoices(
  positions: CashPosition[],
  lookups: Lookups | undefined,
  { untracked }: { untracked: boolean },
): CurrencyChoice[] {
  const decimalsOf = (id: number) => lookups?.currencies.find((c) => c.id === id)?.decimals;
  const tracked = positions.map((p) => ({
    id: p.currency.id,
    ticker: p.currency.ticker,
    decimals: decimalsOf(p.currency.id),
    position: p,
  }));
  if (!untracked) return tracked;
  const others = (lookups?.currencies ?? [])
    .filter((c) => !positions.some((p) => p.currency.id === c.id))
    .map((c) => ({ id: c.id, ticker: c.code, decimals: c.decimals, position: undefined }));
  return [...tracked, ...others];
}

export const choiceOptions = (choices: CurrencyChoice[]) => {
  const group = (tracked: boolean) =>
    choices
      .filter((c) => (c.position !== undefined) === tracked)
      .map((c) => ({ value: String(c.id), label: c.ticker }));
  const others = group(false);
  return others.length === 0
    ? group(true)
    : [
        { group: 'Tracked', items: group(true) },
        { group: 'Not tracked yet', items: others },
      ].filter((g) => g.items.length > 0);
};

/** What every cash form is given: the exchange, its positions, the lookups, and the currency picked at first. */
export interface CashFormProps {
  exchangeId: number;
  positions: CashPosition[];
  lookups: Lookups | undefined;
  /** The currency picked at first (the ledger's). */
  currencyId: number | null;
}
