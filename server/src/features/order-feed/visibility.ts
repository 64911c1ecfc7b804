import type { Scope } from '../../auth/principal.js';

/** Where an order lives: what decides who may hear of its changes. */
export interface OrderPlace {
  branchId: number;
  exchangeId: number;
}

/**
 * The scope rule of db/scope.ts for one order already read: the caller's branch (unless it reaches every
 * branch) and, for an exchange-scoped caller, one of its exchanges. The feed reads every change once per
 * process and hands each subscriber only what this allows.
 */
export function canSee(scope: Scope, place: OrderPlace): boolean {
  if (scope.branchId !== null && place.branchId !== scope.branchId) return false;
  return scope.exchangeIds === null || scope.exchangeIds.includes(place.exchangeId);
}
