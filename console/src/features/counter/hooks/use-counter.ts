import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createClient, createCounterOrder, estimate, findClients, type EstimateRequest } from '../api/counter';
import { counterKeys } from '../api/keys';
import { orderKeys } from '../../orders';

/** The live estimate of what is typed (already debounced by the form); none until the request is complete. */
export function useEstimate(req: EstimateRequest | null) {
  return useQuery({
    queryKey: counterKeys.estimate(req ?? ({} as EstimateRequest)),
    queryFn: () => estimate(req!),
    enabled: req !== null,
    staleTime: 5_000,
  });
}

export function useClientSearch(q: string) {
  return useQuery({
    queryKey: counterKeys.clients(q),
    queryFn: () => findClients(q),
    enabled: q.length >= 2,
    placeholderData: keepPreviousData,
  });
}

/** Both writes put a 400's messages under the form's fields (fieldErrorsTo), so no notice repeats them. */
export function useCreateClient() {
  return useMutation({ mutationFn: createClient, meta: { fieldErrors: true } });
}

export function useCreateCounterOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCounterOrder,
    meta: { fieldErrors: true },
    // The board hears of it on its stream too; the counter's own view of orders is refreshed at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}
