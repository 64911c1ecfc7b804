import type { FastifyInstance } from 'fastify';

/**
 * Query parameters an API route does not declare are a 400 that names them (docs/decisions.md, "Unknown query
 * parameters"), on every route under `prefix`, in this one place: a misspelt filter (`exchangeID`) must not
 * quietly return every row, and a name such as `__proto__` or `constructor` never reaches a handler. JSON bodies
 * already refuse undeclared fields the same way. A route that declares no query string takes none.
 *
 * The rule is added to the route's own schema (a copy, so a schema shared by several routes stays as written)
 * before the OpenAPI plugin reads it; the document lists the same parameters either way.
 */
export function refuseUndeclaredQueryKeys(app: FastifyInstance, prefix: string): void {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix)) return;
    // A browser's preflight carries the query string of the request it asks about; that request is checked itself.
    if ([route.method].flat().every((m) => m === 'OPTIONS')) return;
    route.schema = { ...route.schema, querystring: closed(route.schema?.querystring) };
  });
}

const NO_PARAMETERS = { type: 'object', properties: {} };

function closed(schema: unknown): unknown {
  const base = (schema ?? NO_PARAMETERS) as Record<string, unknown>;
  if (base.type !== 'object' || base.additionalProperties !== undefined) return base;
  return { ...base, additionalProperties: false };
}

/** The names a querystring schema declares, for the message that names what may be sent instead. */
export function declaredQueryKeys(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return properties ? Object.keys(properties) : [];
}
