import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, BranchKey, Me } from '../../../lib/api/types';
import { hasRole } from '../../../lib/auth/me';
import { useSave } from '../../../lib/forms/use-save';
import {
  createKey,
  listBranchKeys,
  listMyKeys,
  revokeKey,
  rollKey,
  setAllowedOrigins,
  type BranchKeyFilter,
  type NewApiKey,
} from '../api/api-keys';
import { apiKeyKeys } from '../api/keys';

export function useMyKeys() {
  return useQuery({ queryKey: apiKeyKeys.mine(), queryFn: listMyKeys });
}

export function useBranchKeys(enabled: boolean, filter: BranchKeyFilter) {
  return useQuery({ queryKey: apiKeyKeys.branch(filter), enabled, queryFn: () => listBranchKeys(filter) });
}

export function useCreateKey() {
  return useSave(
    (body: NewApiKey) => createKey(body),
    [apiKeyKeys.all],
    (k) => `${k.name}: created`,
  );
}

export function useSaveOrigins(apiKey: ApiKey) {
  return useSave(
    (allowedOrigins: string[]) => setAllowedOrigins(apiKey.id, allowedOrigins),
    [apiKeyKeys.all],
    (k) =>
      `${k.name}: ${k.allowedOrigins.length === 0 ? 'any origin' : `${k.allowedOrigins.length} allowed origin(s)`}`,
  );
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
    mutationFn: ({ id, expiresAt }: { id: string; expiresAt?: string }) => rollKey(asAdmin, id, expiresAt),
    meta: { fieldErrors: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

/** Revocation is effective at once on every instance; both lists refresh. */
export function useRevoke(asAdmin: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeKey(asAdmin, id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}
