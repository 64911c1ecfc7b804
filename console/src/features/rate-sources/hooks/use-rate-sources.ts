import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { rateSourceKeys } from '../api/keys';
import {
  createRateSource,
  deleteRateSource,
  listRateSources,
  updateRateSource,
  type NewRateSource,
  type RateSourceChange,
} from '../api/rate-sources';

/** The sources with their last read; read again every 15 s, so a page left open follows the poller. */
export function useRateSources(enabled = true) {
  return useQuery({
    queryKey: rateSourceKeys.list(),
    queryFn: listRateSources,
    enabled,
    refetchInterval: 15_000,
  });
}

export function useCreateRateSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewRateSource) => createRateSource(body),
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rateSourceKeys.all }),
  });
}

export function useUpdateRateSource(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: RateSourceChange) => updateRateSource(id, change),
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rateSourceKeys.all }),
  });
}

/** A 409 (offers are priced from it) becomes the API's sentence in a notice: it says what to do first. */
export function useDeleteRateSource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteRateSource(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rateSourceKeys.all }),
  });
}
