import * as catalog from '../catalog/presenters.js';
import type { PricingColumns } from './repository.js';

/**
 * Inside a union (a nullable is one) the serializer first checks the value against each branch, and a numeric column's string is not a
 * `Money` number there (a 500): the branch gets the number the serializer would have written for it anyway.
 */
const money = (v: string | null) => (v === null ? null : Number(v));

/** An offer as the back office shows it: the partner shape, with its pricing and whether it is suspended. */
export function adminOffer(o: Parameters<typeof catalog.offer>[0] & PricingColumns) {
  return {
    ...catalog.offer(o),
    pricing: pricing(o),
    pricingState: o.pricing_state,
    suspendedReason: o.suspended_reason,
    referenceRate: money(o.reference_rate),
    referenceAt: o.reference_at,
  };
}

function pricing(o: PricingColumns) {
  if (o.pricing_mode === 'fixed') return { mode: 'fixed' as const };
  return {
    mode: 'source' as const,
    sourceId: o.rate_source_id!,
    base: o.pricing_base!,
    quote: o.pricing_quote!,
    marginPercent: money(o.margin_percent!)!,
    decimals: o.rate_decimals,
    floor: money(o.rate_floor),
    ceiling: money(o.rate_ceiling),
    maxJumpPercent: money(o.max_jump_percent),
  };
}

export function rateHistoryPoint(r: { created_at: Date; rate: string; reference_rate: string | null }) {
  return { at: r.created_at, rate: r.rate, referenceRate: money(r.reference_rate) };
}
