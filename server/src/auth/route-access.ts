import type { FastifySchema } from 'fastify';
import type { Permission, StaffRole } from '../db/schema.js';
import { routeOptions, type RouteOptions, type RouteSpec, type Security } from '../http/route.js';
import type { KeyAccess } from './partner-auth.js';
import { EVERY_ROLE, restricts, type StaffAccess } from './staff-permissions.js';

const API_KEY: Security = [{ apiKey: [] }];
/** A route that also reads `?key=` takes either the header or the query parameter. */
const API_KEY_OR_QUERY: Security = [{ apiKey: [] }, { apiKeyQuery: [] }];
const STAFF_JWT: Security = [{ staffJwt: [] }];

/**
 * Routes of the partner API under a tag. Each states the keys that may call it: `keys: 'any'` (a public key too:
 * the public endpoints), `keys: 'secret'` (any secret key), or the `permission` a secret key must hold. Every
 * partner route may answer 401 (the key), 403 (its type, Origin or permission) and 429 (its rate limit).
 */
export function partnerRoute(tag: string) {
  return <S extends FastifySchema>(spec: RouteSpec<S> & KeyAccess): RouteOptions<S> => {
    const access: KeyAccess | undefined = spec.permission
      ? { permission: spec.permission }
      : spec.keys
        ? { keys: spec.keys }
        : undefined;
    if (!access) throw new Error(`${String(spec.schema.operationId)}: a partner route states which keys may call it`);
    return routeOptions(
      spec,
      tag,
      spec.config?.keyInQuery ? API_KEY_OR_QUERY : API_KEY,
      { keyAccess: access },
      [401, 403, 429],
    );
  };
}

/** Who a staff route is for: the roles it is open to (every role when only permissions are named), the permissions. */
export type StaffRouteAccess =
  | { roles: readonly StaffRole[]; permission?: Permission | readonly Permission[] }
  | { roles?: readonly StaffRole[]; permission: Permission | readonly Permission[] };

/**
 * Routes of the staff API (a staff JWT) under a tag. Each states its roles (EVERY_ROLE when any staff user may call
 * it) or the permissions its caller must hold, or both. Every staff route may answer 401; one that refuses some
 * staff users (a role or a permission) 403 as well.
 */
export function staffRoute(tag: string) {
  return <S extends FastifySchema>(spec: RouteSpec<S> & StaffRouteAccess): RouteOptions<S> => {
    if (spec.roles === undefined && spec.permission === undefined) {
      throw new Error(`${String(spec.schema.operationId)}: a staff route states its roles or permission`);
    }
    const access: StaffAccess = { roles: spec.roles ?? EVERY_ROLE, permissions: [spec.permission ?? []].flat() };
    return routeOptions(spec, tag, STAFF_JWT, { staffAccess: access }, restricts(access) ? [401, 403] : [401]);
  };
}
