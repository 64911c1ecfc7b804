import type { SwaggerOptions } from '@fastify/swagger';
import { withCommonResponses } from './openapi-common.js';

/** OpenAPI 3.1 generated from the route schemas that also validate requests and serialize responses. */
export function openApiOptions(extra: { webhooks?: Record<string, unknown> } = {}): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      ...(extra.webhooks ? { webhooks: extra.webhooks } : {}),
      info: {
        title: 'Partner Exchange Service API',
        version: '1.0.0',
        description:
          'REST/JSON API for partners of a network of currency-exchange offices: catalogue reads, exact estimates, ' +
          'client exchange orders, client accounts and signed webhooks; plus staff API-key management and the back office. ' +
          'Partner endpoints take `Authorization: Bearer <API_KEY>`; staff endpoints take a staff JWT.',
      },
      servers: [{ url: '/' }],
      tags: [
        { name: 'public', description: 'Public catalogue endpoints (any key type)' },
        { name: 'catalog', description: 'Exchanges and offers' },
        { name: 'orders', description: 'Client exchange orders' },
        { name: 'sandbox', description: 'Test moves of own orders in a sandbox branch' },
        { name: 'clients', description: 'Client accounts' },
        { name: 'webhooks', description: 'Webhook endpoints and their deliveries' },
        { name: 'events', description: 'The events feed: webhook envelopes by polling' },
        { name: 'auth', description: 'Staff login' },
        { name: 'api-keys', description: 'Partner API key management (staff JWT)' },
        { name: 'admin', description: 'Back office (staff JWT)' },
        { name: 'operations', description: 'Health, readiness and metrics' },
      ],
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'Partner API key: sk_personal_…, sk_branch_… or pk_…',
          },
          staffJwt: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Staff access token from POST /api/v1/auth/login',
          },
          // Only GET /partner/public/rates.xml takes it: a rate monitor is given a URL and sends no header.
          apiKeyQuery: {
            type: 'apiKey',
            in: 'query',
            name: 'key',
            description:
              'A public key (pk_…) as ?key=, on GET /partner/public/rates.xml only; a secret key there is refused (400)',
          },
        },
      },
    },
    transformObject: (documents) =>
      'openapiObject' in documents ? withCommonResponses(documents.openapiObject) : documents.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}`,
    },
  };
}

/**
 * /docs (Swagger UI) runs only its own files and talks only to this origin: "Try it out" sends a partner's key or a
 * staff token, so no injected or third-party script may run beside it. Swagger UI styles elements inline. The
 * online validator is off: its badge would send the document's address to validator.swagger.io.
 */
export const DOCS_UI_OPTIONS = {
  routePrefix: '/docs',
  uiConfig: { deepLinking: true, tryItOutEnabled: true, validatorUrl: null },
  staticCSP:
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
};
