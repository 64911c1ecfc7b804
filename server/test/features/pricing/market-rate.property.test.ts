import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  marketRate,
  priceFromQuotes,
  referenceOf,
  type MarketPricing,
} from '../../../src/features/pricing/market-rate.js';

/* The formula against a model in BigInt fractions, written apart from it: no decimal library, one floor at the end. */

interface Q {
  n: bigint;
  d: bigint;
}
const TEN = 10n;
const pow10 = (k: number) => TEN ** BigInt(k);
function parse(text: string): Q {
  const negative = text.startsWith('-');
  const [int, frac = ''] = (negative ? text.slice(1) : text).split('.');
  const n = BigInt(int + frac) * (negative ? -1n : 1n);
  return { n, d: pow10(frac.length) };
}
const mul = (a: Q, b: Q): Q => ({ n: a.n * b.n, d: a.d * b.d });
const div = (a: Q, b: Q): Q => ({ n: a.n * b.d, d: a.d * b.n });
const cmp = (a: Q, b: Q) => {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
};
/** floor(q × 10^k) / 10^k for q > 0, as a fraction. */
const floorTo = (q: Q, k: number): Q => ({ n: (q.n * pow10(k)) / q.d, d: pow10(k) });
/** e with 10^e ≤ q < 10^(e+1), q > 0. */
function exponent(q: Q): number {
  let e = 0;
  while (cmp(q, { n: pow10(e + 1), d: 1n }) >= 0) e++;
  while (cmp(q, e >= 0 ? { n: pow10(e), d: 1n } : { n: 1n, d: pow10(-e) }) < 0) e--;
  return e;
}

/** The rate the rules give, or undefined for none: reference × (100 + margin) / 100, floored, clamped. */
function model(reference: Q, p: MarketPricing): { rate: Q; unclamped: Q; exact: Q } | undefined {
  const exact = div(
    mul(reference, { n: 100n * parse(p.marginPercent).d + parse(p.marginPercent).n, d: parse(p.marginPercent).d }),
    { n: 100n, d: 1n },
  );
  if (exact.n <= 0n) return undefined;
  const decimals = p.decimals ?? Math.min(18, Math.max(0, 8 - 1 - exponent(exact)));
  const unclamped = floorTo(exact, decimals);
  if (unclamped.n <= 0n) return undefined;
  let rate = unclamped;
  if (p.floor !== null && cmp(rate, parse(p.floor)) < 0) rate = parse(p.floor);
  if (p.ceiling !== null && cmp(rate, parse(p.ceiling)) > 0) rate = parse(p.ceiling);
  return { rate, unclamped, exact };
}

/** A positive decimal of 1–12 significant digits, from 1e-8 to 1e8. */
const positiveDecimal = fc
  .tuple(fc.bigInt({ min: 1n, max: 999_999_999_999n }), fc.integer({ min: 0, max: 16 }))
  .map(([digits, scale]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    const int = text.slice(0, text.length - scale);
    const frac = text.slice(text.length - scale).replace(/0+$/, '');
    return frac ? `${int}.${frac}` : int;
  })
  .filter((t) => cmp(parse(t), { n: 1n, d: pow10(8) }) >= 0 && cmp(parse(t), { n: pow10(8), d: 1n }) <= 0);

const margin = fc
  .tuple(fc.integer({ min: -9999, max: 9999 }), fc.integer({ min: 0, max: 4 }))
  .map(([v, scale]) => {
    const q = { n: BigInt(v), d: pow10(scale) };
    const s = (q.n < 0n ? -q.n : q.n).toString().padStart(scale + 1, '0');
    const body = scale ? `${s.slice(0, s.length - scale)}.${s.slice(s.length - scale)}` : s;
    return (q.n < 0n ? '-' : '') + body;
  })
  .filter((m) => cmp(parse(m), { n: -99n, d: 1n }) > 0);

type Route = 'direct' | 'inverse' | 'cross-bb' | 'cross-cc' | 'cross-bc' | 'cross-cb';

/** Quotes that give base→quote by one route only, and the exact reference they mean. */
const quotesArb = fc
  .tuple(
    fc.constantFrom<Route>('direct', 'inverse', 'cross-bb', 'cross-cc', 'cross-bc', 'cross-cb'),
    positiveDecimal,
    positiveDecimal,
  )
  .map(([route, a, b]) => {
    const A = parse(a);
    const B = parse(b);
    const ONE: Q = { n: 1n, d: 1n };
    // `noise` pairs name none of BAS, QUO; they must not change the answer.
    const noise = { 'XAU/XAG': '80.5' };
    switch (route) {
      case 'direct':
        return { route, quotes: { ...noise, 'BAS/QUO': a }, reference: A };
      case 'inverse':
        return { route, quotes: { ...noise, 'QUO/BAS': a }, reference: div(ONE, A) };
      case 'cross-bb': // BAS/C and QUO/C
        return { route, quotes: { ...noise, 'BAS/CCC': a, 'QUO/CCC': b }, reference: div(A, B) };
      case 'cross-cc': // C/BAS and C/QUO: 1 C = a BAS = b QUO
        return { route, quotes: { ...noise, 'CCC/BAS': a, 'CCC/QUO': b }, reference: div(B, A) };
      case 'cross-bc': // BAS/C and C/QUO
        return { route, quotes: { ...noise, 'BAS/CCC': a, 'CCC/QUO': b }, reference: mul(A, B) };
      case 'cross-cb': // C/BAS and QUO/C
        return { route, quotes: { ...noise, 'CCC/BAS': a, 'QUO/CCC': b }, reference: div(ONE, mul(A, B)) };
    }
  });

const bounds = fc.option(positiveDecimal, { nil: null });

const asQ = (text: string) => parse(text);

describe('market rate: the formula against an exact BigInt model', () => {
  it('gives the model rate for every reference, route, margin, decimals and bounds; never above the exact value before clamping', () => {
    fc.assert(
      fc.property(
        quotesArb,
        margin,
        fc.option(fc.integer({ min: 0, max: 18 }), { nil: null }),
        bounds,
        bounds,
        (q, marginPercent, decimals, lo, hi) => {
          const [floor, ceiling] = lo !== null && hi !== null && cmp(asQ(lo), asQ(hi)) > 0 ? [hi, lo] : [lo, hi];
          const p: MarketPricing = { base: 'BAS', quote: 'QUO', marginPercent, decimals, floor, ceiling };
          const ref = referenceOf(q.quotes, 'BAS', 'QUO');
          expect(ref?.route).toBe(q.route.startsWith('cross') ? 'cross' : q.route);
          const expected = model(q.reference, p);
          const got = marketRate(ref!.value, p);
          if (!expected) {
            expect(got.ok).toBe(false);
            return;
          }
          expect(got.ok).toBe(true);
          if (!got.ok) return;
          expect(cmp(asQ(got.rate.toFixed()), expected.rate)).toBe(0);
          expect(cmp(asQ(got.unclamped.toFixed()), expected.unclamped)).toBe(0);
          // The house never rounds in the client's favour.
          expect(cmp(asQ(got.unclamped.toFixed()), expected.exact)).toBeLessThanOrEqual(0);
          if (floor !== null) expect(cmp(asQ(got.rate.toFixed()), asQ(floor))).toBeGreaterThanOrEqual(0);
          if (ceiling !== null) expect(cmp(asQ(got.rate.toFixed()), asQ(ceiling))).toBeLessThanOrEqual(0);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('stores the reference rounded down to 18 places', () => {
    fc.assert(
      fc.property(quotesArb, (q) => {
        const r = priceFromQuotes(q.quotes, {
          base: 'BAS',
          quote: 'QUO',
          marginPercent: '0',
          decimals: 18,
          floor: null,
          ceiling: null,
        });
        const stored = floorTo(q.reference, 18);
        if (stored.n === 0n) return expect(r.ok).toBe(false);
        expect(r.ok).toBe(true);
        if (r.ok) expect(cmp(asQ(r.reference), stored)).toBe(0);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('market rate: cases', () => {
  const p = (over: Partial<MarketPricing> = {}): MarketPricing => ({
    base: 'USD',
    quote: 'RUB',
    marginPercent: '0',
    decimals: null,
    floor: null,
    ceiling: null,
    ...over,
  });
  it.each([
    ['direct, margin -1.5%, 2 decimals', { 'USD/RUB': '91.55' }, p({ marginPercent: '-1.5', decimals: 2 }), '90.17'],
    ['inverse 1/3 × 3 is exactly 1', { 'RUB/USD': '3' }, p({ marginPercent: '200', decimals: 2 }), '1'],
    [
      'default decimals keep 8 significant digits',
      { 'USD/RUB': '91.55' },
      p({ base: 'RUB', quote: 'USD' }),
      '0.010922992',
    ],
    ['cross through EUR', { 'EUR/USD': '1.1', 'EUR/RUB': '100' }, p({ decimals: 4 }), '90.909'],
    ['clamped to the floor', { 'USD/RUB': '91.55' }, p({ floor: '95' }), '95'],
    ['clamped to the ceiling', { 'USD/RUB': '91.55' }, p({ ceiling: '90' }), '90'],
  ])('%s', (_name, quotes, pricing, rate) => {
    const r = priceFromQuotes(quotes, pricing);
    expect(r.ok && r.rate).toBe(rate);
  });
  it.each([
    ['no such pair', { 'EUR/USD': '1.1' }, p(), 'notQuoted'],
    ['a quote that is not a positive decimal', { 'USD/RUB': '-1' }, p(), 'notQuoted'],
    ['a margin of -100%', { 'USD/RUB': '91.55' }, p({ marginPercent: '-100' }), 'notPositive'],
    ['rounds to 0', { 'USD/RUB': '0.0001' }, p({ decimals: 2 }), 'notPositive'],
  ])('no rate: %s', (_name, quotes, pricing, reason) => {
    const r = priceFromQuotes(quotes, pricing);
    expect(r.ok ? 'ok' : r.reason).toBe(reason);
  });
});
