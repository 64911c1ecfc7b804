import { useQuery } from '@tanstack/react-query';
import type { Lookups } from '../../../lib/api/types';
import { lookupKeys } from '../api/keys';
import { getLookups } from '../api/lookups';

/** Names of the branches, exchanges, currencies and payment methods in the user's reach, shared by every page. */
export function useLookups() {
  return useQuery({ queryKey: lookupKeys.all, queryFn: getLookups, staleTime: 60_000 });
}

export function nameOf(list: { id: number; name: string }[] | undefined, id: number | null | undefined): string {
  if (id === null || id === undefined) return '—';
  return list?.find((x) => x.id === id)?.name ?? `#${id}`;
}

/**
 * The exchanges to pick from. When they belong to more than one branch (a superadmin's), each names its branch too:
 * two branches may well both have a "Central Exchange", and a pick must say which.
 */
export const exchangeOptions = (l: Lookups | undefined) => {
  const exchanges = l?.exchanges ?? [];
  const manyBranches = new Set(exchanges.map((e) => e.branchId)).size > 1;
  return exchanges.map((e) => ({
    value: String(e.id),
    label: manyBranches ? `${e.name} · ${nameOf(l?.branches, e.branchId)}` : e.name,
  }));
};
export const branchOptions = (l: Lookups | undefined) =>
  (l?.branches ?? []).map((b) => ({ value: String(b.id), label: b.name }));
export const currencyOptions = (l: Lookups | undefined) =>
  (l?.currencies ?? []).map((c) => ({ value: String(c.id), label: `${c.code} — ${c.name}` }));
