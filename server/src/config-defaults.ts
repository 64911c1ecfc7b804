type NodeEnv = 'development' | 'production' | 'test';

/** Boolean settings whose default depends on NODE_ENV. */
export const DEFAULT_BOOLEANS: Record<string, (env: NodeEnv) => string> = {
  WEBHOOK_ALLOW_PRIVATE_URLS: (env) => (env === 'development' ? 'true' : 'false'),
  SEED_DEMO: (env) => (env === 'production' ? 'false' : 'true'),
  TRUST_PROXY: () => 'false',
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
