import * as catalog from '../catalog/presenters.js';
import type { PricingColumns } from './repository.js';

/** An offer as the back office shows it: the partner shape, with its pricing and whether it is suspended. */
export function adminOffer(o: Parameters<typeof catalog.offer>[0] & PricingColumns) {
  return {
    ...catalog.offer(o),
    pricing: pricing(o),
    pricingState: o.pricing_state,
    suspendedReason: o.suspended_reason,
    referenceRate: o.reference_rate,
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
    marginPercent: o.margin_percent!,
    decimals: o.rate_decimals,
    floor: o.rate_floor,
    ceiling: o.rate_ceiling,
    maxJumpPercent: o.max_jump_percent,
  };
}

export function rateHistoryPoint(r: { created_at: Date; rate: string; reference_rate: string | null }) {
  return { at: r.created_at, rate: r.rate, referenceRate: r.reference_rate };
}
