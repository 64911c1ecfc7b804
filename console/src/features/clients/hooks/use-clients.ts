import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSave } from '../../../lib/forms/use-save';
import { listClients, updateClient, type ClientChange } from '../api/clients';
import { clientKeys } from '../api/keys';

export const CLIENT_PAGE = 25;

/** A page of the clients matching `q` (every client when it is empty). */
export function useClients(q: string, page: number) {
  return useQuery({
    queryKey: clientKeys.list({ q, page }),
    placeholderData: keepPreviousData,
    queryFn: () => listClients(q, (page - 1) * CLIENT_PAGE, CLIENT_PAGE),
  });
}

export function useUpdateClient(id: number) {
  return useSave(
    (body: ClientChange) => updateClient(id, body),
    [clientKeys.all],
    (c) => `${c.firstName} ${c.lastName}: saved`,
  );
}
