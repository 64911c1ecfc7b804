import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lookupKeys } from '../../lookups';
import { createExchange, getExchange, listExchanges, updateExchange, type ExchangeBody } from '../api/exchanges';
import { exchangeKeys } from '../api/keys';

export function useExchanges() {
  return useQuery({ queryKey: exchangeKeys.list(), queryFn: listExchanges });
}

export function useExchange(id: number) {
  return useQuery({ queryKey: exchangeKeys.detail(id), queryFn: () => getExchange(id) });
}

export function useSaveExchange(id: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ExchangeBody) => (id === null ? createExchange(body) : updateExchange(id, body)),
    meta: { fieldErrors: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: exchangeKeys.all });
      void queryClient.invalidateQueries({ queryKey: lookupKeys.all });
    },
  });
}
