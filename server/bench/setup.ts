import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { startChild, type Child } from './processes.js';
import { seedBench, settle, type BenchData } from './seed.js';
import { NODE_ARGS, STARTUP_FLAGS } from './v8.js';

export const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const here = fileURLToPath(new URL('.', import.meta.url));
/** The production entry point, with its V8 settings. */
export const CLI = join(here, '../../bin/pxs.js');

/** The service as in production, with a limit so high that the rate limiter counts every request and refuses none. */
export const SERVICE_ENV = { NODE_ENV: 'production', LOG_LEVEL: 'warn', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-000', RATE_LIMIT_PER_MINUTE: '1000000000', SEED_DEMO: 'false' };

export async function admin(sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const res = await client.query(sql);
    return String(res.rows[0] ? Object.values(res.rows[0])[0] : '');
  } finally {
    await client.end();
  }
}

/** A database of the bench's own on the PostgreSQL server, dropped afterwards. */
export async function createBenchDatabase(prefix = 'pxs_bench'): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}`;
  await admin(`create database ${name}`);
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return { name, url: u.toString(), drop: async () => { await admin(`drop database if exists ${name} with (force)`).catch(() => undefined); } };
}

export async function prepareDatabase(url: string | undefined, dataDir: string): Promise<BenchData> {
  const handle = await openDatabase({ databaseUrl: url, dataDir });
  try {
    await migrateToLatest(handle.db);
    const data = await seedBench(handle.db);
    await settle(handle.db);
    return data;
  } finally {
    await handle.close();
  }
}

/** The service's API process as in production (SERVICE_ENV, no webhook worker), with `env` on top. */
export function startService(env: Record<string, string>, nodeArgs: string[] = []): Promise<Child> {
  return serve(CLI, [...STARTUP_FLAGS, ...nodeArgs], env);
}

/**
 * The service with the Redis rate limiter (REDIS_URL), under a key prefix of its own: its counters and revocation
 * messages meet no other process's.
 */
export function startServiceWithRedis(databaseUrl: string): Promise<Child> {
  return startService({ DATABASE_URL: databaseUrl, REDIS_URL, REDIS_KEY_PREFIX: `bench-${Date.now()}` });
}

/** The same process from another built checkout (its directory), with that checkout's own startup flags. */
export async function startServiceOf(dir: string, env: Record<string, string>): Promise<Child> {
  const flags = (await import(pathToFileURL(resolve(dir, 'bin/v8-flags.js')).href)) as { STARTUP_FLAGS?: string[] };
  return serve(resolve(dir, 'bin/pxs.js'), flags.STARTUP_FLAGS ?? [], env);
}

function serve(cli: string, nodeArgs: string[], env: Record<string, string>): Promise<Child> {
  return startChild(cli, ['serve', '--no-worker'], { ...SERVICE_ENV, ...env }, nodeArgs);
}

/**
 * The webhook worker as deployed: `pxs worker`, a process of its own with its own pool, hearing of new deliveries
 * through Postgres NOTIFY. It may call the bench's receiver on 127.0.0.1.
 */
export function startWorkerProcess(databaseUrl: string): Promise<Child> {
  return startChild(CLI, ['worker'], workerEnv(databaseUrl), STARTUP_FLAGS, '"msg":"webhook worker started"');
}

/** The worker process's own settings, on top of the bench's environment, which it inherits. */
export function workerEnv(databaseUrl: string): Record<string, string> {
  return { ...SERVICE_ENV, LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' };
}

/** Baseline (b): the service's SQL in a minimal Fastify app, with the service's V8 settings. */
export function startBaselineB(databaseUrl: string, data: BenchData): Promise<Child> {
  return startChild(join(here, 'baseline-fastify.js'), [], { DATABASE_URL: databaseUrl, BENCH_BRANCH_ID: String(data.branchId), BENCH_KEY_ID: data.branchKeyId }, NODE_ARGS);
}
