import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startChild, type Child } from './processes.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The production entry point; it runs the built service (dist/), which `npm run bench` builds first. */
const CLI = join(here, '../../bin/pxs.js');
const BASELINES = join(here, '../baselines');

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The service's V8 settings (bin/v8-flags.js), also given to the baselines: a ratio compares code, not flags. */
const { STARTUP_FLAGS, V8_FLAGS } = (await import(pathToFileURL(join(here, '../../bin/v8-flags.js')).href)) as {
  STARTUP_FLAGS: string[];
  V8_FLAGS: string[];
};

/** As in production, with a limit so high that the rate limiter counts every request and refuses none. */
export const SERVICE_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  SEED_DEMO: 'false',
  RATE_LIMIT_PER_MINUTE: '1000000000',
  JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000',
};

/** BENCH_CPU_PROF=<dir>: each API process writes a V8 CPU profile there when it stops (node refuses --cpu-prof in NODE_OPTIONS). */
const PROFILE = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];

/** The API process as deployed (`pxs serve --no-worker`), on the given database. */
export function startService(databaseUrl: string, env: Record<string, string> = {}): Promise<Child> {
  return startChild(CLI, ['serve', '--no-worker'], {
    env: { ...SERVICE_ENV, DATABASE_URL: databaseUrl, ...env },
    nodeArgs: [...STARTUP_FLAGS, ...PROFILE],
  });
}

/** The same with the Redis rate limiter, under a key prefix of its own. */
export function startServiceWithRedis(databaseUrl: string): Promise<Child> {
  return startService(databaseUrl, { REDIS_URL, REDIS_KEY_PREFIX: `bench-${Date.now()}` });
}

/** The webhook worker as deployed (`pxs worker`), allowed to call the bench's receiver on 127.0.0.1. */
export function startWorker(databaseUrl: string): Promise<Child> {
  const env = { ...SERVICE_ENV, LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
  return startChild(CLI, ['worker'], { env, nodeArgs: STARTUP_FLAGS, readyLine: '"msg":"webhook worker started"' });
}

/** A baseline of bench/baselines/, run from its TypeScript source with the service's V8 settings. */
export function startBaseline(name: string, env: Record<string, string> = {}): Promise<Child> {
  return startChild(join(BASELINES, `${name}.ts`), [], {
    env,
    nodeArgs: [...STARTUP_FLAGS, ...V8_FLAGS, '--import', 'tsx'],
  });
}
