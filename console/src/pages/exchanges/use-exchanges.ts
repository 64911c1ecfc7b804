import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { Body } from '../../api/types';

export function useExchanges() {
  return useQuery({ queryKey: ['exchanges'], queryFn: () => unwrap(api.GET('/api/v1/admin/exchanges', { params: { query: { limit: 100 } } })) });
}

export function useExchange(id: number) {
  return useQuery({ queryKey: ['exchanges', id], queryFn: () => unwrap(api.GET('/api/v1/admin/exchanges/{id}', { params: { path: { id } } })) });
}

export function useSaveExchange(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body<'/api/v1/admin/exchanges', 'post'>) => (id === null
      ? unwrap(api.POST('/api/v1/admin/exchanges', { body }))
      : unwrap(api.PATCH('/api/v1/admin/exchanges/{id}', { params: { path: { id } }, body }))),
    meta: { fieldErrors: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['exchanges'] });
      void queryClient.invalidateQueries({ queryKey: ['lookups'] });
    },
  });
}
