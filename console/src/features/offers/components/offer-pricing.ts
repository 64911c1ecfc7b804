import type { Offer } from '../../../lib/api/types';
import { compare, divide, multiply, places, subtract, trimmed } from '../../../lib/decimal';
import { decimal } from '../../../lib/format';

export const SUSPENDED_WORDS: Record<NonNullable<Offer['suspendedReason']>, string> = {
  stale: 'Feed stale',
  jump: 'Reference jumped',
};

/** Why partners do not see the offer now, in words: a safety stop of its source, else null. */
export function suspension(o: Pick<Offer, 'pricingState' | 'suspendedReason'>): string | null {
  if (o.pricingState !== 'suspended') return null;
  return o.suspendedReason ? SUSPENDED_WORDS[o.suspendedReason] : 'Suspended';
}

/** "EUR/USD +0.5 %" or "−1.25 %": the reference pair and the margin on it. */
export function pricingLine(o: Offer): string {
  if (o.pricing.mode !== 'source') return 'Fixed rate';
  const margin = decimal(o.pricing.marginPercent ?? 0);
  const sign = margin.startsWith('-') ? '−' : '+';
  return `${o.pricing.base}/${o.pricing.quote} ${sign}${trimmed(margin.replace(/^-/, ''))} %`;
}

export interface Spread {
  /** The pair as the exchange quotes it: base is the first offer's currency1. */
  base: string;
  quote: string;
  /** Quote given for one base the client sells (offer base→quote). */
  buy: string;
  /** Quote asked for one base the client buys (1 ÷ the rate of offer quote→base), cut to the buy's places + 2. */
  sell: string;
  /** What a round trip keeps: (1 − buy-rate × sell-rate) × 100, exact. */
  spreadPercent: string;
  /** sell − buy in quote units, as exact as `sell` is. */
  spread: string;
  buyOfferId: number;
  sellOfferId: number;
}

/**
 * The pairs the exchange offers both ways (A→B and B→A), each once, with what it pays and asks for A in B and the
 * margin between them. The percent comes from multiplication alone, so it is exact.
 */
export function spreads(offers: Offer[]): Spread[] {
  const found: Spread[] = [];
  for (const there of offers) {
    const back = offers.find((o) => o.currency1.id === there.currency2.id && o.currency2.id === there.currency1.id);
    if (!back || there.currency1.id > there.currency2.id) continue;
    const buy = decimal(there.rate);
    const backRate = decimal(back.rate);
    if (compare(backRate, 0) <= 0) continue;
    const sell = divide(1, backRate, Math.max(places(buy) + 2, 4));
    found.push({
      base: there.currency1.code,
      quote: there.currency2.code,
      buy,
      sell: trimmed(sell),
      spread: trimmed(subtract(sell, buy)),
      spreadPercent: trimmed(multiply(subtract(1, multiply(buy, backRate)), 100)),
      buyOfferId: there.id,
      sellOfferId: back.id,
    });
  }
  return found;
}
