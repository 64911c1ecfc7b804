import { Decimal as DecimalJs } from 'decimal.js';

/**
 * The decimal type for money. 60 significant digits cover numeric(38,18) with room; intermediate results
 * of a division are rounded in the same direction as the final rounding so the result is exact.
 */
export const Dec = DecimalJs.clone({ precision: 60, rounding: DecimalJs.ROUND_HALF_EVEN, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof Dec>;

/** Amounts and rates are stored as numeric(38,18): every value lies strictly below 10^20. */
export const AMOUNT_BOUND = 1e20;
const BOUND = new Dec(AMOUNT_BOUND);

/** Whether a computed amount fits its column; a larger one would fail the insert as a numeric overflow. */
export function isStorableAmount(value: Dec): boolean {
  return value.lessThan(BOUND);
}

export const ROUND_DOWN = DecimalJs.ROUND_DOWN;
export const ROUND_UP = DecimalJs.ROUND_UP;

const DOWN = Dec.clone({ rounding: DecimalJs.ROUND_DOWN });
const UP = Dec.clone({ rounding: DecimalJs.ROUND_UP });

export function divide(a: Dec, b: Dec, rounding: typeof ROUND_DOWN | typeof ROUND_UP): Dec {
  const D = rounding === ROUND_UP ? UP : DOWN;
  // A decimal.js constructor copies another clone's instance digit for digit, as a round trip through its
  // string would (no rounding on construction), without printing and parsing three numbers.
  return new Dec(new D(a).div(b));
}

const PARSED_LIMIT = 1024;
const parsed = new Map<string, Dec>();

/**
 * A stored decimal (an offer's rate or limit) as a Dec, parsed once: the same few strings price every estimate.
 * Dec values are immutable, so one instance can be shared; the map is emptied when full, so it stays small.
 */
export function storedDec(text: string): Dec {
  let value = parsed.get(text);
  if (value === undefined) {
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    value = new Dec(text);
    parsed.set(text, value);
  }
  return value;
}

/** A decimal string as stored (numeric) without trailing zeros: "1.500000" → "1.5". */
export function normalize(value: string | Dec): string {
  return new Dec(value).toFixed();
}

/**
 * A JSON number from a request as an exact decimal string (JS prints the shortest round-trip form). decimal.js
 * parses that same form, so it is needed only to write out an exponent (below 1e-6, from 1e21): going through
 * decimal.js for every amount cost 2-3 µs of each estimate and order for the same digits.
 */
export function amountFromJson(value: number): string {
  const text = String(value);
  return text.includes('e') ? new Dec(value).toFixed() : text;
}
