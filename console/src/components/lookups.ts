import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Lookups } from '../api/types';

/** Names of the branches, exchanges, currencies and payment methods in the user's reach, shared by every page. */
export function useLookups() {
  return useQuery({ queryKey: ['lookups'], queryFn: () => unwrap(api.GET('/api/v1/admin/lookups')), staleTime: 60_000 });
}

export function nameOf(list: { id: number; name: string }[] | undefined, id: number | null | undefined): string {
  if (id === null || id === undefined) return '—';
  return list?.find((x) => x.id === id)?.name ?? `#${id}`;
}

export const exchangeOptions = (l: Lookups | undefined) => (l?.exchanges ?? []).map((e) => ({ value: String(e.id), label: e.name }));
export const branchOptions = (l: Lookups | undefined) => (l?.branches ?? []).map((b) => ({ value: String(b.id), label: b.name }));
export const currencyOptions = (l: Lookups | undefined) => (l?.currencies ?? []).map((c) => ({ value: String(c.id), label: `${c.code} — ${c.name}` }));
