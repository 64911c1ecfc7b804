import type { Executor } from '../../db/database.js';
import { Dec } from '../pricing/decimal.js';
import { priceFromQuotes, type MarketPricing } from '../pricing/market-rate.js';
import { decimalInput, signedDecimalInput } from './amounts.js';
import { OfferError } from './errors.js';
import * as repo from './repository.js';
import type { PricingColumns } from './repository.js';
import type { SourcePricingDto } from './schemas.js';

/** The columns of a fixed offer: no source, never suspended. */
export const FIXED: PricingColumns = {
  pricing_mode: 'fixed',
  rate_source_id: null,
  pricing_base: null,
  pricing_quote: null,
  margin_percent: null,
  rate_decimals: null,
  rate_floor: null,
  rate_ceiling: null,
  max_jump_percent: null,
  pricing_state: 'active',
  suspended_reason: null,
  reference_rate: null,
  reference_at: null,
};

/** Checks a `pricing: {mode: "source", …}` body, so each refusal names its field. */
export function sourcePricing(
  input: SourcePricingDto,
): MarketPricing & { sourceId: number; maxJumpPercent: string | null } {
  if (input.base === input.quote) throw OfferError.pricingSameCurrency();
  const marginPercent = signedDecimalInput('pricing.marginPercent', input.marginPercent);
  const margin = new Dec(marginPercent);
  if (margin.lte(-100) || margin.gt(1000)) throw OfferError.marginOutOfRange();
  const positive = (field: 'floor' | 'ceiling' | 'maxJumpPercent') => {
    const value = input[field];
    if (value === undefined) return null;
    const text = decimalInput(`pricing.${field}`, value);
    if (new Dec(text).lte(0)) throw OfferError.pricingNotPositive(`pricing.${field}`);
    return text;
  };
  const floor = positive('floor');
  const ceiling = positive('ceiling');
  if (floor !== null && ceiling !== null && new Dec(floor).gt(ceiling))
    throw OfferError.floorAboveCeiling(floor, ceiling);
  return {
    sourceId: input.sourceId,
    base: input.base,
    quote: input.quote,
    marginPercent,
    decimals: input.decimals ?? null,
    floor,
    ceiling,
    maxJumpPercent: positive('maxJumpPercent'),
  };
}

/** An offer's MarketPricing as its columns hold it. */
export function pricingOfRow(o: PricingColumns): MarketPricing {
  return {
    base: o.pricing_base!,
    quote: o.pricing_quote!,
    marginPercent: o.margin_percent!,
    decimals: o.rate_decimals,
    floor: o.rate_floor,
    ceiling: o.rate_ceiling,
  };
}

/**
 * The columns and rate of an offer priced from a source of the exchange's branch, from the source's last successful
 * read: refused when the source is not the branch's, or its last read gives no rate for the pair.
 */
export async function priceFromSource(db: Executor, exchangeId: number, input: SourcePricingDto, now: Date) {
  const p = sourcePricing(input);
  const source = await repo.findRateSource(db, exchangeId, p.sourceId);
  if (!source) throw OfferError.rateSourceNotFound();
  const priced = priceFromQuotes(source.last_quotes ?? {}, p);
  if (!priced.ok) {
    throw priced.reason === 'notQuoted'
      ? OfferError.pairNotQuoted(p.base, p.quote)
      : OfferError.noMarketRate(priced.reason);
  }
  const columns: PricingColumns = {
    pricing_mode: 'source',
    rate_source_id: p.sourceId,
    pricing_base: p.base,
    pricing_quote: p.quote,
    margin_percent: p.marginPercent,
    rate_decimals: p.decimals,
    rate_floor: p.floor,
    rate_ceiling: p.ceiling,
    max_jump_percent: p.maxJumpPercent,
    pricing_state: 'active',
    suspended_reason: null,
    reference_rate: priced.reference,
    reference_at: now,
  };
  return { rate: priced.rate, columns };
}
