import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { parse } from 'lossless-json';
import type { Logger } from 'pino';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import type { App } from '../../src/http/types.js';
import { openTestDatabase, type TestDatabase } from './database.js';

/**
 * One Redis namespace per test file: files never share limits or invalidations. Looked up by the running file, as
 * the files a worker runs one after another share this module (isolate: false): a namespace made once per module
 * let one file's failed logins (the same world emails) count against another's login limit within 15 minutes.
 */
const namespaces = new Map<string, string>();
function redisNamespace(): string {
  const file = expect.getState().testPath ?? '';
  let namespace = namespaces.get(file);
  if (!namespace) namespaces.set(file, (namespace = `pxstest-${randomBytes(4).toString('hex')}`));
  return namespace;
}

export interface TestServer {
  url: string;
  ctx: AppContext;
  db: TestDatabase['db'];
  database: TestDatabase;
  app: App;
  config: Config;
  /** Stops the server; closes the database too unless it was handed in. */
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Share one database between several servers (multi-instance tests). */
  database?: TestDatabase;
  /** The process's pino logger, as `pxs serve` hands it in (logging tests). */
  loggerInstance?: Logger;
  /** Adds routes of the test's own before the server listens. */
  beforeListen?: (app: App) => void;
}

/**
 * A real HTTP server on an ephemeral port, with the app exactly as `pxs serve` builds it. Limits default high
 * so only the rate-limit tests meet them; REDIS_URL from the environment is used when set.
 */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const config = loadConfig({
    NODE_ENV: 'test',
    // TEST_LOG_LEVEL=error shows what a failing request logged.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '1000000',
    LOGIN_FAILURES_PER_ACCOUNT: '1000000',
    LOGIN_FAILURES_PER_IP: '1000000',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    REDIS_URL: process.env.REDIS_URL,
    REDIS_KEY_PREFIX: redisNamespace(),
    DATABASE_URL: undefined,
    ...options.env,
  });
  const database = options.database ?? (await openTestDatabase());
  const ctx = await createContext(config, database);
  const app = await buildApp(ctx, { loggerInstance: options.loggerInstance });
  options.beforeListen?.(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ctx,
    db: database.db,
    database,
    app,
    config,
    async close() {
      await app.close();
      await ctx.close();
      if (!options.database) await database.close();
    },
  };
}

/** A response's JSON with every number kept as its exact decimal text (the API writes every digit it has). */
export function exactJson(text: string): any {
  return parse(text, null, (value) => value);
}

export interface CallOptions {
  key?: string;
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Sends a real HTTP request. `key` and `token` both become a Bearer header. */
export async function call<T = any>(
  server: { url: string },
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const bearer = options.key ?? options.token;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const qs = options.query
    ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)])).toString()}`
    : '';
  const res = await fetch(`${server.url}/api/v1${path}${qs}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}
