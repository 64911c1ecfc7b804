import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { newIdempotencyKey } from '../../../lib/api/idempotency-key';
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

/**
 * The Idempotency-Key of one request of the form: the same for as long as the request is the same, so that *Create
 * and print* pressed again after a network error (the first attempt may have gone through) is answered with the
 * client or order that attempt created instead of creating another; a new one once the request differs (the form's
 * values changed) or was done (`renew`).
 */
export function useAttemptKey() {
  const attempt = useRef<{ request: string; key: string } | null>(null);
  return useMemo(
    () => ({
      of(request: unknown): string {
        const text = JSON.stringify(request);
        if (attempt.current?.request !== text) attempt.current = { request: text, key: newIdempotencyKey() };
        return attempt.current.key;
      },
      renew(): void {
        attempt.current = null;
      },
    }),
    [],
  );
}
