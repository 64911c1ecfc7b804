import * as catalog from '../catalog/presenters.js';
import { normalize } from '../pricing/decimal.js';
import type { PricingColumns } from './repository.js';

/** An offer as the back office shows it: the partner shape, with its pricing and whether it is suspended. */
export function adminOffer(o: Parameters<typeof catalog.offer>[0] & PricingColumns) {
  return {
    ...catalog.offer(o),
    pricing: pricing(o),
    pricingState: o.pricing_state,
    suspendedReason: o.suspended_reason,
    referenceRate: o.reference_rate ?? undefined,
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
    decimals: o.rate_decimals ?? undefined,
    floor: o.rate_floor ?? undefined,
    ceiling: o.rate_ceiling ?? undefined,
    maxJumpPercent: o.max_jump_percent ?? undefined,
  };
}

export function rateHistoryPoint(r: { created_at: Date; rate: string; reference_rate: string | null }) {
  return { at: r.created_at, rate: r.rate, referenceRate: r.reference_rate ?? undefined };
}

/** An offer as `offer.updated` carries it, read back after the change; the one shape of that event. */
export function offerUpdated(o: {
  id: number;
  exchange_id: number;
  branch_id: number;
  c1_id: number;
  c1_code: string;
  c2_id: number;
  c2_code: string;
  rate: string;
  min_amount: string;
  max_amount: string;
  is_active: boolean;
  pricing_state: 'active' | 'suspended';
  updated_at: Date;
}) {
  return {
    event: 'offer.updated' as const,
    branchId: o.branch_id,
    exchangeId: o.exchange_id,
    data: {
      id: o.id,
      exchangeId: o.exchange_id,
      currency1: { id: o.c1_id, code: o.c1_code },
      currency2: { id: o.c2_id, code: o.c2_code },
      rate: normalize(o.rate),
      minAmount: normalize(o.min_amount),
      maxAmount: normalize(o.max_amount),
      // A suspended offer is not offered to partners: to them it is inactive until it resumes.
      isActive: o.is_active && o.pricing_state === 'active',
      updatedAt: o.updated_at.toISOString(),
    },
  };
}
