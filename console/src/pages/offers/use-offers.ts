import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Body } from '../../api/types';

/** The offer forms' words for the API's names of their fields, as its messages mention them. */
export const OFFER_WORDS = {
  currency1Id: 'the currency the client gives', currency2Id: 'the currency the client gets',
  minAmount: 'the minimum', maxAmount: 'the maximum',
};

export function useOffers(exchangeId: number | null) {
  return useQuery({
    queryKey: ['offers', exchangeId],
    enabled: exchangeId !== null,
    queryFn: () => unwrap(api.GET('/api/v1/admin/offers', {
      params: { query: { filter: JSON.stringify({ exchangeId }), sort: '[["currency1Id","ASC"],["currency2Id","ASC"]]', limit: 100 } },
    })),
  });
}

/** A change reaches partners at once (and emits offer.updated); the row shows the API's answer. */
export function useUpdateOffer(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Body<'/api/v1/admin/offers/{id}', 'patch'>) => unwrap(api.PATCH('/api/v1/admin/offers/{id}', { params: { path: { id } }, body: change })),
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['offers'] }),
  });
}

export function useCreateOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'/api/v1/admin/offers', 'post'>) => unwrap(api.POST('/api/v1/admin/offers', { body })),
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['offers'] }),
  });
}
