import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { offerKeys } from '../api/keys';
import {
  createOffer,
  listOffers,
  offerRates,
  resumeOffer,
  updateOffer,
  type NewOffer,
  type OfferChange,
} from '../api/offers';

/** How often the list is read again while a source prices one of its offers. */
export const MARKET_REFRESH_MS = 5000;

/**
 * An exchange's offers. While one of them is priced from a source, the server may re-price or suspend it at any
 * poll, and nothing tells the console (the live stream carries orders only): the list is read again every few
 * seconds then, and not while the tab is hidden (TanStack Query's default; focus reads it at once on return).
 */
export function useOffers(exchangeId: number | null) {
  return useQuery({
    queryKey: offerKeys.list(exchangeId),
    enabled: exchangeId !== null,
    queryFn: () => listOffers(exchangeId),
    refetchInterval: (q) => (q.state.data?.data.some((o) => o.pricing.mode === 'source') ? MARKET_REFRESH_MS : false),
  });
}

/** A change reaches partners at once (and emits offer.updated); the row shows the API's answer. */
export function useUpdateOffer(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OfferChange) => updateOffer(id, change),
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: offerKeys.all }),
  });
}

export function useCreateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewOffer) => createOffer(body),
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: offerKeys.all }),
  });
}

/** A suspended offer offered to partners again at its current rate, on staff's word. */
export function useResumeOffer(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => resumeOffer(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: offerKeys.all }),
  });
}

/** The rates applied over the last `days`, with the reference each was made from. */
export function useOfferRates(id: number, days: number) {
  return useQuery({
    queryKey: offerKeys.rates(id, days),
    queryFn: () => {
      const to = new Date();
      return offerRates(id, new Date(to.getTime() - days * 86_400_000).toISOString(), to.toISOString());
    },
  });
}
