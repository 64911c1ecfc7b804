type NodeEnv = 'development' | 'production' | 'test';

/**
 * Boolean settings whose default depends on NODE_ENV and on the database. The conveniences of a developer's machine
 * (the demo's staff, whose passwords are in the README; webhooks to local receivers) are defaults only on the
 * embedded database: a deployment on PostgreSQL that forgot NODE_ENV=production must not get a known superadmin
 * login, nor webhooks that read its internal network back through the delivery log.
 */
export const DEFAULT_BOOLEANS: Record<string, (env: NodeEnv, embedded: boolean) => string> = {
  WEBHOOK_ALLOW_PRIVATE_URLS: (env, embedded) => (env === 'development' && embedded ? 'true' : 'false'),
  SEED_DEMO: (env, embedded) => (env !== 'production' && embedded ? 'true' : 'false'),
};

/** Outside production, a JWT secret made once per process. */
let devSecret: string | undefined;
export function developmentSecret(): string {
  devSecret ??= randomHex(32);
  return devSecret;
}

function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex');
}
