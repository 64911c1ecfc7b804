import type { FastifyContextConfig, FastifySchema, preValidationAsyncHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import { errorResponses } from './schemas.js';

/*
 * Every API route's options are made by the helper of its kind: publicRoute here, partnerRoute and staffRoute in
 * auth/route-access.ts, where a route states who may call it (a partner route the keys, a staff route the roles or
 * permissions). The helper writes the security requirement, the tag and the refusals every route of the kind may
 * give. The partner and staff scopes refuse to register a route that states no access (partner-auth.ts,
 * staff-auth.ts), so a route cannot be left open by forgetting to say.
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
  schema: Omit<S, 'response'> & {
    tags: string[];
    security: Security;
    response: S['response'] & Record<number, TSchema>;
  };
}

/** A route's options, for the helper of its kind: the schema given its security, tag and refusals, the config its access. */
export function routeOptions<S extends FastifySchema>(
  spec: RouteSpec<S>,
  tag: string,
  security: Security,
  access: Partial<FastifyContextConfig>,
  codes: readonly number[],
): RouteOptions<S> {
  const { schema } = spec;
  // A route that reads a body or a query may refuse it; a path parameter's 400 stays the route's to state.
  const input = schema.body !== undefined || schema.querystring !== undefined ? [400] : [];
  const response = { ...errorResponses(...input, ...codes, ...(spec.errors ?? [])), ...(schema.response as object) };
  return {
    config: { ...spec.config, ...access },
    ...(spec.preValidation && { preValidation: spec.preValidation }),
    schema: { ...schema, tags: [tag], security, response } as RouteOptions<S>['schema'],
  };
}

/** An operation's security requirement: the schemes of which one is needed. */
export type Security = Record<string, string[]>[];
const NONE: Security = [];

/** A route without credentials (staff login, the operations endpoints): its refusals are all its own. */
export function publicRoute(tag: string) {
  return <S extends FastifySchema>(spec: RouteSpec<S>): RouteOptions<S> => routeOptions(spec, tag, NONE, {}, []);
}
