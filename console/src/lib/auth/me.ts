import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Me, Permission, Role } from '../api/types';

/** The query keys of who is logged in. */
export const meKeys = { all: ['me'] as const };

/**
 * Who is logged in, as the service judges it now (role and scope are read on every request): asked again each
 * minute, and at once when the API refuses something (query-client.ts), so a changed role changes the menu.
 */
export function useMe() {
  return useQuery({
    queryKey: meKeys.all,
    queryFn: () => unwrap(api.GET('/api/v1/auth/me')),
    staleTime: 60_000,
    refetchInterval: 60_000,
  });
}

export function can(me: Me | undefined, permission: Permission): boolean {
  return Boolean(me?.permissions.includes(permission));
}

export function hasRole(me: Me | undefined, ...roles: Role[]): boolean {
  return Boolean(me && roles.includes(me.role));
}
