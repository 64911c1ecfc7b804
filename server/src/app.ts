import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { registerPartnerAuth } from './auth/partner-auth.js';
import { registerPublicCors } from './auth/public-cors.js';
import { registerStaffAuth } from './auth/staff-auth.js';
import type { AppContext } from './context.js';
import type { KeyAccess } from './auth/partner-auth.js';
import type { StaffAccess } from './auth/staff-permissions.js';
import { ADMIN_FEATURES, PARTNER_FEATURES, PUBLIC_FEATURES, STAFF_FEATURES } from './route-table.js';
import { findStaffForAuth } from './features/staff/service.js';
import { widgetRoutes } from './features/widget/public-routes.js';
import { WEBHOOK_EVENT_SCHEMAS, webhookDocs } from './features/webhooks/events.js';
import { OrderChange } from './features/order-feed/schemas.js';
import { findConsoleDir, registerConsole } from './http/console.js';
import { acceptOnlyJsonBodies } from './http/body-encoding.js';
import { parseJsonBodies } from './http/json-body.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerEtag } from './http/etag.js';
import { registerResponseHeaders } from './http/response-headers.js';
import { loggedUrl } from './http/logged-url.js';
import { requestLoggerFactory } from './http/request-logger.js';
import { refuseUndeclaredQueryKeys } from './http/query-keys.js';
import { validatorCompiler } from './http/validators.js';
import { writeExactDecimals } from './http/exact-numbers.js';
import { registerOperationsRoutes } from './http/operations.js';
import { DOCS_UI_OPTIONS, openApiOptions } from './http/openapi.js';
import { ErrorSchema } from './http/schemas.js';
import type { App } from './http/types.js';

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/** A registered route, and who it states may call it (a staff route its roles and permissions, a partner route its keys). */
export interface RouteEntry {
  method: string;
  url: string;
  hidden: boolean;
  access?: StaffAccess | KeyAccess;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * Credentials never reach the logs, whichever object carries them; nor do a failed statement's bound values or the
 * row PostgreSQL quotes in its detail (a webhook's secret, a client's email): its SQL text is kept. A Redis reply
 * error carries the command it answered, which for HELLO or AUTH holds the password.
 */
export const REDACT = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    '*.password',
    '*.rawKey',
    '*.secretKey',
    '*.accessToken',
    '*.token',
    'err.params',
    'err.detail',
    'err.command',
  ],
  censor: '[redacted]',
};

export interface BuildAppOptions {
  /** A pino logger to share with the rest of the process; otherwise one is made from the config. */
  loggerInstance?: FastifyBaseLogger;
  /** The demo's public key, for /widget/demo, when this process seeded the demo. */
  demoPublicKey?: string;
}

/** The one app used by `pxs serve`, the tests and the benchmark. */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<App> {
  writeExactDecimals();
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: { level: ctx.config.logLevel, redact: REDACT } }),
    bodyLimit: ctx.config.bodyLimitBytes,
    trustProxy: ctx.config.trustProxy,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    return503OnClosing: true,
    // One access-log line per request (below) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: requestLoggerFactory,
    forceCloseConnections: 'idle',
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Every route with its method and who may call it: the OpenAPI test proves the document lists them all, the route
  // access test that every staff and partner route states its access.
  const routes: RouteEntry[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      const access = route.config?.staffAccess ?? route.config?.keyAccess;
      routes.push({
        method,
        url: route.url,
        hidden: Boolean(route.schema?.hide) || route.url.startsWith('/docs'),
        ...(access && { access }),
      });
    }
  });

  // Before any route, so that they see them all.
  registerResponseHeaders(app as unknown as FastifyInstance);
  registerPublicCors(app as unknown as FastifyInstance, `${API_PREFIX}/partner`);

  app.setValidatorCompiler(validatorCompiler());
  refuseUndeclaredQueryKeys(app as unknown as FastifyInstance, API_PREFIX);
  acceptOnlyJsonBodies(app as unknown as FastifyInstance);
  parseJsonBodies(app as unknown as FastifyInstance);
  registerErrorHandling(app as unknown as FastifyInstance, ctx.database.afterStatement);
  app.addSchema(ErrorSchema);
  // The data of the order stream's events: no route's response names it, but the console's types need it.
  app.addSchema(OrderChange);
  // The bodies of webhook deliveries, referenced by the document's `webhooks`.
  for (const schema of WEBHOOK_EVENT_SCHEMAS) app.addSchema(schema);

  // Callback hooks where nothing is awaited: an async hook costs a promise and a microtask turn per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    // No browser may read an answer as anything but its declared type (an error echoing input, read as HTML).
    reply.header('x-content-type-options', 'nosniff');
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route, status: String(reply.statusCode) };
    ctx.metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    // The line's fields are gathered only when it is written (the client's address may mean parsing a proxy chain).
    if (!(app.log as Logger).isLevelEnabled('info')) return done();
    // From the app's logger with the request id as a field: the same line as request.log's, without making a child.
    // ip: the client's address (behind proxies, as TRUST_PROXY allows reading it), to trace abuse to its source.
    app.log.info(
      {
        reqId: request.id,
        method: request.method,
        url: loggedUrl(request.url),
        route,
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ip: request.ip,
      },
      'request',
    );
    done();
  });

  await app.register(swagger, openApiOptions({ webhooks: webhookDocs() }));
  await app.register(swaggerUi, DOCS_UI_OPTIONS);

  registerOperationsRoutes(app as unknown as FastifyInstance, ctx);

  app.get(`${API_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());

  for (const feature of PUBLIC_FEATURES) await app.register(feature(ctx), { prefix: API_PREFIX });
  await app.register(
    async (partner) => {
      registerPartnerAuth(partner as unknown as FastifyInstance, ctx);
      registerEtag(partner as unknown as FastifyInstance);
      for (const feature of PARTNER_FEATURES) await partner.register(feature(ctx));
    },
    { prefix: `${API_PREFIX}/partner` },
  );
  const staffAuth = {
    tokens: ctx.tokens,
    findStaff: (by: { id: number } | { email: string }) => findStaffForAuth(ctx.db, by),
  };
  await app.register(
    async (staff) => {
      registerStaffAuth(staff as unknown as FastifyInstance, staffAuth);
      for (const feature of STAFF_FEATURES) await staff.register(feature(ctx));
    },
    { prefix: API_PREFIX },
  );
  await app.register(
    async (admin) => {
      registerStaffAuth(admin as unknown as FastifyInstance, staffAuth);
      for (const feature of ADMIN_FEATURES) await admin.register(feature(ctx));
    },
    { prefix: `${API_PREFIX}/admin` },
  );
  await app.register(widgetRoutes({ demoPublicKey: options.demoPublicKey }));
  await registerConsole(
    app as unknown as FastifyInstance,
    findConsoleDir(ctx.config.consoleDir),
    ctx.config.consoleDir !== undefined,
  );

  return app as unknown as App;
}
