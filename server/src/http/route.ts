import type { FastifyContextConfig, FastifySchema, preValidationAsyncHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import type { KeyAccess } from '../auth/partner-auth.js';
import { EVERY_ROLE, restricts, type StaffAccess } from '../auth/staff-permissions.js';
import type { Permission, StaffRole } from '../db/schema.js';
import { errorResponses } from './schemas.js';

/*
 * Every API route's options are made here, by the helper of its kind: it states who may call the route (a partner
 * route the keys, a staff route the roles or permissions), and the helper writes the security requirement, the tag
 * and the refusals every route of the kind may give. The partner and staff scopes refuse to register a route that
 * states no access (partner-auth.ts, staff-auth.ts), so a route cannot be left open by forgetting to say.
 */

/** What a route states besides who may call it. */
export interface RouteSpec<S extends FastifySchema> {
  /** Refusals beyond those of the route's kind (see each helper), each documented with the Error shape. */
  errors?: readonly number[];
  /** Hook-driven behaviour of the route (etag, noStore, keyInQuery); who may call it is stated beside. */
  config?: Omit<FastifyContextConfig, 'keyAccess' | 'staffAccess'>;
  preValidation?: preValidationAsyncHookHandler;
  /** The operation without its security and tags; responses declared for its successes and own refusals. */
  schema: S & { security?: never; tags?: never };
}

/** The options a route is registered with: the spec's schema, given its security, tag and refusals. */
export interface RouteOptions<S extends FastifySchema> {
  config: FastifyContextConfig;
  preValidation?: preValidationAsyncHookHandler;
  schema: Omit<S, 'response'> & { tags: string[]; security: Security; response: S['response'] & Record<number, TSchema> };
}

function options<S extends FastifySchema>(
  spec: RouteSpec<S>, tag: string, security: Security, access: Partial<FastifyContextConfig>, codes: readonly number[],
): RouteOptions<S> {
  const { schema } = spec;
  // A route that reads a body or a query may refuse it; a path parameter's 400 stays the route's to state.
  const input = schema.body !== undefined || schema.querystring !== undefined ? [400] : [];
  const response = { ...errorResponses(...input, ...codes, ...spec.errors ?? []), ...schema.response as object };
  return {
    config: { ...spec.config, ...access },
    ...(spec.preValidation && { preValidation: spec.preValidation }),
    schema: { ...schema, tags: [tag], security, response } as RouteOptions<S>['schema'],
  };
}

type Security = Record<string, string[]>[];
const API_KEY: Security = [{ apiKey: [] }];
/** A route that also reads `?key=` takes either the header or the query parameter. */
const API_KEY_OR_QUERY: Security = [{ apiKey: [] }, { apiKeyQuery: [] }];
const STAFF_JWT: Security = [{ staffJwt: [] }];
const NONE: Security = [];

/**
 * Routes of the partner API under a tag. Each states the keys that may call it: `keys: 'any'` (a public key too:
 * the public endpoints), `keys: 'secret'` (any secret key), or the `permission` a secret key must hold. Every
 * partner route may answer 401 (the key), 403 (its type, Origin or permission) and 429 (its rate limit).
 */
export function partnerRoute(tag: string) {
  return <S extends FastifySchema>(spec: RouteSpec<S> & KeyAccess): RouteOptions<S> => {
    const access: KeyAccess | undefined = spec.permission ? { permission: spec.permission } : spec.keys ? { keys: spec.keys } : undefined;
    if (!access) throw new Error(`${String(spec.schema.operationId)}: a partner route states which keys may call it`);
    return options(spec, tag, spec.config?.keyInQuery ? API_KEY_OR_QUERY : API_KEY, { keyAccess: access }, [401, 403, 429]);
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
    return options(spec, tag, STAFF_JWT, { staffAccess: access }, restricts(access) ? [401, 403] : [401]);
  };
}

/** A route without credentials (staff login, the operations endpoints): its refusals are all its own. */
export function publicRoute(tag: string) {
  return <S extends FastifySchema>(spec: RouteSpec<S>): RouteOptions<S> => options(spec, tag, NONE, {}, []);
}
