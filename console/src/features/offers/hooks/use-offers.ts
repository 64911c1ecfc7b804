import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { offerKeys } from '../api/keys';
import { createOffer, listOffers, updateOffer, type NewOffer, type OfferChange } from '../api/offers';

export function useOffers(exchangeId: number | null) {
  return useQuery({
    queryKey: offerKeys.list(exchangeId),
    enabled: exchangeId !== null,
    queryFn: () => listOffers(exchangeId),
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
