import { Decimal as DecimalJs } from 'decimal.js';
import { Dec } from './decimal.js';

/**
 * An offer's rate made from a rate source's quotes (docs/rates.md, "Pricing an offer from a source"). Pure: no
 * database, no HTTP errors.
 *
 * The reference base→quote is kept as an exact fraction of published decimals (an inversion or a cross is a
 * division), and the rate is that fraction × (100 + margin) / 100, divided once and rounded down once to its
 * decimals. Products and the one division run at 200 significant digits: a rate has at most 38, so the division
 * rounded down to 200 digits and then to `decimals` gives exactly the floor of the true fraction.
 */
const WIDE = DecimalJs.clone({ precision: 200, rounding: DecimalJs.ROUND_DOWN, toExpNeg: -400, toExpPos: 400 });
type Wide = InstanceType<typeof WIDE>;

/** A number `num / den` of two exact decimals, both positive. */
export interface Fraction {
  num: Wide;
  den: Wide;
}

export type Route = 'direct' | 'inverse' | 'cross';

export interface Reference {
  value: Fraction;
  route: Route;
}

/** How an offer is priced from its source's quotes: the fields of `pricing` once parsed (decimal strings). */
export interface MarketPricing {
  base: string;
  quote: string;
  marginPercent: string;
  /** Rate decimals; null: as many as keep RATE_SIGNIFICANT_DIGITS significant digits. */
  decimals: number | null;
  floor: string | null;
  ceiling: string | null;
}

/** The default precision of a rate: 91.551234, 0.0000109260 and 97123.456 all keep 8 significant digits. */
export const RATE_SIGNIFICANT_DIGITS = 8;
export const MAX_RATE_DECIMALS = 18;
/** The rate column's bound (numeric(38,18)). */
const RATE_BOUND = new WIDE('1e20');

const QUOTE = /^\d{1,30}(\.\d{1,30})?$/;

/** A published quote, when it is a positive decimal: sources are read from outside, so anything else is no quote. */
function quoteOf(quotes: Readonly<Record<string, string>>, base: string, quote: string): Wide | undefined {
  const text = Object.hasOwn(quotes, `${base}/${quote}`) ? quotes[`${base}/${quote}`] : undefined;
  if (typeof text !== 'string' || !QUOTE.test(text)) return undefined;
  const value = new WIDE(text);
  return value.gt(0) ? value : undefined;
}

const ONE = new WIDE(1);

/**
 * The reference base→quote (units of quote for one base): the pair as published, else the inverse of quote/base,
 * else crossed through the first currency C (in the quotes' order) that both are quoted against, in either direction.
 */
export function referenceOf(
  quotes: Readonly<Record<string, string>>,
  base: string,
  quote: string,
): Reference | undefined {
  if (base === quote) return undefined;
  const direct = quoteOf(quotes, base, quote);
  if (direct) return { value: { num: direct, den: ONE }, route: 'direct' };
  const inverse = quoteOf(quotes, quote, base);
  if (inverse) return { value: { num: ONE, den: inverse }, route: 'inverse' };
  for (const c of currenciesOf(quotes)) {
    if (c === base || c === quote) continue;
    const baseInC = toC(quotes, base, c);
    const quoteInC = toC(quotes, quote, c);
    // 1 base = baseInC C and 1 quote = quoteInC C, so 1 base = baseInC / quoteInC quote.
    if (baseInC && quoteInC)
      return {
        value: { num: baseInC.num.times(quoteInC.den), den: baseInC.den.times(quoteInC.num) },
        route: 'cross',
      };
  }
  return undefined;
}

/** One unit of `x` in C, as published (x/C) or inverted (C/x). */
function toC(quotes: Readonly<Record<string, string>>, x: string, c: string): Fraction | undefined {
  const direct = quoteOf(quotes, x, c);
  if (direct) return { num: direct, den: ONE };
  const inverse = quoteOf(quotes, c, x);
  return inverse ? { num: ONE, den: inverse } : undefined;
}

function currenciesOf(quotes: Readonly<Record<string, string>>): string[] {
  const seen = new Set<string>();
  for (const pair of Object.keys(quotes)) for (const code of pair.split('/')) seen.add(code);
  return [...seen];
}

/** The fraction rounded down to `decimals` places. */
export function floorTo(f: Fraction, decimals: number): Dec {
  return new Dec(f.num.div(f.den).toDecimalPlaces(decimals, DecimalJs.ROUND_DOWN).toFixed());
}

/** The decimals that keep RATE_SIGNIFICANT_DIGITS significant digits of a positive value, within [0, 18]. */
export function defaultDecimals(f: Fraction): number {
  // The position of the first significant digit, exact: 10^e ≤ value < 10^(e+1).
  const e = f.num.div(f.den).e;
  return Math.min(MAX_RATE_DECIMALS, Math.max(0, RATE_SIGNIFICANT_DIGITS - 1 - e));
}

export type MarketRate =
  { ok: true; rate: Dec; decimals: number; unclamped: Dec } | { ok: false; reason: 'notPositive' | 'tooLarge' };

/**
 * reference × (1 + marginPercent/100), rounded down to `decimals`, then clamped to [floor, ceiling]. Not a rate
 * when that rounds to 0 or less (a margin of -100% or below, or a reference too small for the decimals), or when
 * it does not fit the rate column.
 */
export function marketRate(
  reference: Fraction,
  p: Pick<MarketPricing, 'marginPercent' | 'decimals' | 'floor' | 'ceiling'>,
): MarketRate {
  const factor = new WIDE(100).plus(p.marginPercent);
  if (factor.lte(0)) return { ok: false, reason: 'notPositive' };
  const exact: Fraction = { num: reference.num.times(factor), den: reference.den.times(100) };
  const decimals = p.decimals ?? defaultDecimals(exact);
  const unclamped = floorTo(exact, decimals);
  if (unclamped.lte(0)) return { ok: false, reason: 'notPositive' };
  if (!unclamped.lt(RATE_BOUND.toFixed())) return { ok: false, reason: 'tooLarge' };
  let rate = unclamped;
  if (p.floor !== null && rate.lt(p.floor)) rate = new Dec(p.floor);
  if (p.ceiling !== null && rate.gt(p.ceiling)) rate = new Dec(p.ceiling);
  return { ok: true, rate, decimals, unclamped };
}

/** The reference as the offers table keeps it (numeric(38,18)): rounded down to 18 places. */
export function storedReference(reference: Fraction): string {
  return floorTo(reference, MAX_RATE_DECIMALS).toFixed();
}

/**
 * Whether `next` lies more than `maxJumpPercent` away from `last` (both stored references): |next − last| × 100 >
 * maxJumpPercent × last, exact.
 */
export function isJump(last: string, next: string, maxJumpPercent: string): boolean {
  const l = new WIDE(last);
  return new WIDE(next).minus(l).abs().times(100).gt(l.times(maxJumpPercent));
}

export type Priced =
  { ok: true; rate: string; reference: string } | { ok: false; reason: 'notQuoted' | 'notPositive' | 'tooLarge' };

/** An offer's rate and its reference (both as stored) from a source's quotes. */
export function priceFromQuotes(quotes: Readonly<Record<string, string>>, p: MarketPricing): Priced {
  const reference = referenceOf(quotes, p.base, p.quote);
  if (!reference) return { ok: false, reason: 'notQuoted' };
  const stored = storedReference(reference.value);
  if (!new WIDE(stored).lt(RATE_BOUND)) return { ok: false, reason: 'tooLarge' };
  if (new WIDE(stored).lte(0)) return { ok: false, reason: 'notPositive' };
  const r = marketRate(reference.value, p);
  return r.ok ? { ok: true, rate: r.rate.toFixed(), reference: stored } : r;
}
