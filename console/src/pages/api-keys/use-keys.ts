import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import type { ApiKey, BranchKey, Me } from '../../api/types';
import { hasRole } from '../../auth/use-me';

export function useMyKeys() {
  return useQuery({ queryKey: ['api-keys', 'mine'], queryFn: () => unwrap(api.GET('/api/v1/api-keys')) });
}

export function useBranchKeys(enabled: boolean, filter: { type?: 'personal' | 'branch' | 'public'; branchId?: number }) {
  return useQuery({
    queryKey: ['api-keys', 'branch', filter],
    enabled,
    queryFn: () => unwrap(api.GET('/api/v1/admin/api-keys', { params: { query: { ...filter, limit: 100 } } })),
  });
}

/**
 * What the API lets `me` roll (docs/decisions.md, "Who manages which key"): a superadmin any key; anyone else
 * only its own personal keys, since a roll hands over a new raw key. Revoking stays open to a branch's admin.
 */
export function mayRoll(me: Me | undefined, k: ApiKey | BranchKey): boolean {
  if (hasRole(me, 'superadmin')) return true;
  return k.type === 'personal' && (!('staffUserId' in k) || k.staffUserId === me?.id);
}

/** A new key for an old one, which keeps working until `expiresAt` (the server's default: 24 hours). */
export function useRoll(asAdmin: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, expiresAt }: { id: string; expiresAt?: string }) => {
      const options = { params: { path: { id } }, body: expiresAt ? { expiresAt } : {} };
      return unwrap(asAdmin ? api.POST('/api/v1/admin/api-keys/{id}/roll', options) : api.POST('/api/v1/api-keys/{id}/roll', options));
    },
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}

/** Revocation is effective at once on every instance; both lists refresh. */
export function useRevoke(asAdmin: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(asAdmin
      ? api.DELETE('/api/v1/admin/api-keys/{id}', { params: { path: { id } } })
      : api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['api-keys'] }),
  });
}
