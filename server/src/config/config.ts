import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { DEFAULT_BOOLEANS, developmentSecret } from './defaults.js';
import { IntegrationEnv, integrationConfig, type IntegrationConfig } from './integration.js';
import { trustProxyOf, type TrustProxy } from './proxy.js';
import { relatedSettingProblems } from './rules.js';
import { OwnerLimitsEnv, ownerLimitsConfig, type OwnerLimitsConfig } from './limits.js';
import { WebhooksEnv, webhooksConfig, type WebhooksConfig } from './webhooks.js';

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')]);

/** Every setting the service reads. Nothing else in the code reads process.env. */
const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ default: '0.0.0.0' }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  DATA_DIR: Type.String({ minLength: 1, default: './data' }),
  DATABASE_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 10 }),
  DATABASE_QUERY_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 15_000 }),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  REDIS_KEY_PREFIX: Type.String({ pattern: '^[A-Za-z0-9:_-]{1,50}$', default: 'pxs' }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  JWT_JWKS_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  JWT_ISSUER: Type.Optional(Type.String({ minLength: 1 })),
  JWT_AUDIENCE: Type.Optional(Type.String({ minLength: 1 })),
  JWT_TTL_SECONDS: Type.Integer({ minimum: 60, maximum: 86400, default: 3600 }),
  RATE_LIMIT_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 60 }),
  RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: Type.Integer({ minimum: 1, maximum: 1_000_000_000, default: 30 }),
  LOGIN_FAILURES_PER_ACCOUNT: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 10 }),
  LOGIN_FAILURES_PER_IP: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 100 }),
  KEY_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 5000, default: 5000 }),
  LAST_USED_FLUSH_MS: Type.Integer({ minimum: 100, maximum: 60000, default: 30000 }),
  BODY_LIMIT_BYTES: Type.Integer({ minimum: 1024, maximum: 104_857_600, default: 102400 }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  SEED_DEMO: Bool,
  BOOTSTRAP_ADMIN_EMAIL: Type.Optional(Type.String({ format: 'email' })),
  BOOTSTRAP_ADMIN_PASSWORD: Type.Optional(Type.String({ minLength: 12 })),
  TRUST_PROXY: Type.String({ default: 'false' }),
  CONSOLE_DIR: Type.Optional(Type.String({ minLength: 1 })),
  ...WebhooksEnv,
  ...IntegrationEnv,
  ...OwnerLimitsEnv,
});

type Env = Static<typeof EnvSchema>;

export interface Config extends WebhooksConfig, IntegrationConfig, OwnerLimitsConfig {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL connections of an API process, all kept open once made. */
  databasePoolSize: number;
  /** A statement unanswered this long fails (503) and its connection is replaced; 0: no limit (db/database.ts). */
  databaseQueryTimeoutMs: number;
  redisUrl?: string;
  /** Namespace of every Redis key and channel, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  jwt: { secret: string; jwksUrl?: string; issuer?: string; audience?: string; ttlSeconds: number };
  rateLimit: {
    perMinute: number;
    unauthenticatedPerMinute: number;
    loginFailuresPerAccount: number;
    loginFailuresPerIp: number;
  };
  keys: { cacheTtlMs: number; lastUsedFlushMs: number };
  bodyLimitBytes: number;
  logLevel: Env['LOG_LEVEL'];
  seedDemo: boolean;
  bootstrapAdmin?: { email: string; password: string };
  trustProxy: TrustProxy;
  /** The built staff console served at /; the @pxs/console package's dist when unset. */
  consoleDir?: string;
}

export class ConfigError extends Error {}

/** The values a choice allows, so that refusing one lists them rather than Ajv's "must match a schema in anyOf". */
function choices(schema: unknown): string[] | undefined {
  const anyOf = (schema as { anyOf?: { const?: unknown }[] } | undefined)?.anyOf;
  return anyOf?.every((s) => typeof s.const === 'string') ? anyOf.map((s) => s.const as string) : undefined;
}

/** Parses and validates the environment once; the message names every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = source[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const nodeEnv = (raw.NODE_ENV as Env['NODE_ENV']) ?? 'development';
  for (const [key, fallback] of Object.entries(DEFAULT_BOOLEANS))
    raw[key] ??= fallback(nodeEnv, raw.DATABASE_URL === undefined);

  // Value.Convert truncates "2.5" to 2 for an integer (and converts in place): an operator's typo would pass unnoticed.
  const notWhole = Object.entries(EnvSchema.properties)
    .filter(
      ([key, schema]) =>
        (schema as { type?: string }).type === 'integer' &&
        typeof raw[key] === 'string' &&
        !/^\s*-?\d+\s*$/.test(raw[key] as string),
    )
    .map(([key]) => key);
  const converted = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  const problems = [
    ...notWhole.map((key) => `${key}: must be a whole number`),
    ...[...Value.Errors(EnvSchema, converted)]
      .map((e) => ({
        name:
          e.instancePath.replace(/^\//, '') ||
          String((e.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? ''),
        message: e.message,
      }))
      .filter((e) => !notWhole.includes(e.name))
      .map((e) => {
        const allowed = choices(EnvSchema.properties[e.name as keyof Env]);
        return `${e.name}: ${allowed ? `must be one of ${allowed.join(', ')}` : e.message}`;
      }),
  ];
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${[...new Set(problems)].join('; ')}`);
  const env = converted as Env;

  const trustProxy = trustProxyOf(env.TRUST_PROXY);
  const related = [...relatedSettingProblems(env), ...(trustProxy instanceof Error ? [trustProxy.message] : [])];
  if (related.length > 0) throw new ConfigError(`Invalid configuration: ${related.join('; ')}`);

  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseQueryTimeoutMs: env.DATABASE_QUERY_TIMEOUT_MS,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    jwt: {
      // Outside production a per-process secret keeps tokens working for the life of the process only.
      secret: env.JWT_SECRET ?? developmentSecret(),
      jwksUrl: env.JWT_JWKS_URL,
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ttlSeconds: env.JWT_TTL_SECONDS,
    },
    rateLimit: {
      perMinute: env.RATE_LIMIT_PER_MINUTE,
      unauthenticatedPerMinute: env.RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE,
      loginFailuresPerAccount: env.LOGIN_FAILURES_PER_ACCOUNT,
      loginFailuresPerIp: env.LOGIN_FAILURES_PER_IP,
    },
    keys: { cacheTtlMs: env.KEY_CACHE_TTL_MS, lastUsedFlushMs: env.LAST_USED_FLUSH_MS },
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    logLevel: env.LOG_LEVEL,
    seedDemo: env.SEED_DEMO === 'true',
    bootstrapAdmin:
      env.BOOTSTRAP_ADMIN_EMAIL && env.BOOTSTRAP_ADMIN_PASSWORD
        ? { email: env.BOOTSTRAP_ADMIN_EMAIL, password: env.BOOTSTRAP_ADMIN_PASSWORD }
        : undefined,
    trustProxy: trustProxy as TrustProxy,
    consoleDir: env.CONSOLE_DIR,
    ...webhooksConfig(env),
    ...integrationConfig(env),
    ...ownerLimitsConfig(env),
  };
}
