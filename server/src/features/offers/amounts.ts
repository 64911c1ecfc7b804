import { badRequest } from '../../http/errors.js';
import { Dec, normalize } from '../pricing/decimal.js';

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/** A decimal from a request as an exact string that fits numeric(38,18); never through binary floating point. */
export function decimalInput(field: string, value: number | string): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? new Dec(value).toFixed() : String(value);
  if (!DECIMAL.test(text)) {
    throw badRequest(`${field} must be a non-negative decimal with at most 20 integer digits and 18 decimal places`, { [field]: 'invalidValue' });
  }
  return normalize(text);
}

export interface OfferAmounts { rate: string; minAmount: string; maxAmount: string }

/** The rules the offers table enforces, checked first so a client gets a 400 that names the field. */
export function checkAmounts(a: OfferAmounts): OfferAmounts {
  if (new Dec(a.rate).lte(0)) throw badRequest('rate must be greater than 0', { rate: 'tooSmall' });
  if (new Dec(a.maxAmount).lte(0)) throw badRequest('maxAmount must be greater than 0', { maxAmount: 'tooSmall' });
  if (new Dec(a.minAmount).gt(a.maxAmount)) {
    throw badRequest(`minAmount ${normalize(a.minAmount)} must not be greater than maxAmount ${normalize(a.maxAmount)}`, { minAmount: 'aboveMaximum' });
  }
  return a;
}
