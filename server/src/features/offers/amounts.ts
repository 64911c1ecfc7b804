import { Dec, normalize } from '../pricing/decimal.js';
import { OfferError } from './errors.js';

const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/** A decimal from a request as an exact string that fits numeric(38,18); never through binary floating point. */
export function decimalInput(field: string, value: number | string): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? new Dec(value).toFixed() : String(value);
  if (!DECIMAL.test(text)) {
    throw OfferError.notADecimal(field);
  }
  return normalize(text);
}

export interface OfferAmounts {
  rate: string;
  minAmount: string;
  maxAmount: string;
}

/** The rules the offers table enforces, checked first so a client gets a 400 that names the field. */
export function checkAmounts(a: OfferAmounts): OfferAmounts {
  if (new Dec(a.rate).lte(0)) throw OfferError.rateNotPositive();
  if (new Dec(a.maxAmount).lte(0)) throw OfferError.maxAmountNotPositive();
  if (new Dec(a.minAmount).gt(a.maxAmount))
    throw OfferError.minAboveMax(normalize(a.minAmount), normalize(a.maxAmount));
  return a;
}

const SIGNED_DECIMAL = /^-?\d{1,20}(\.\d{1,18})?$/;

/** As decimalInput, for a value that may be negative (a margin). */
export function signedDecimalInput(field: string, value: number | string): string {
  const text = typeof value === 'number' && Number.isFinite(value) ? new Dec(value).toFixed() : String(value);
  if (!SIGNED_DECIMAL.test(text)) throw OfferError.notADecimal(field);
  return normalize(text);
}
