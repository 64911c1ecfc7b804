import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
// @ts-expect-error: a plain JavaScript module beside the server's CLI entry, without types
import { STARTUP_FLAGS } from '../../../server/bin/v8-flags.js';

const SERVER_BIN = fileURLToPath(new URL('../../../server/bin/pxs.js', import.meta.url));
export const CONSOLE_DIST = fileURLToPath(new URL('../../dist', import.meta.url));

/** Where a started demo server is, and the demo's keys and logins it printed: what a test needs to reach it. */
export interface DemoAddress {
  url: string;
  keys: { branch: string; public: string; personal: string };
  logins: Record<'superadmin' | 'admin' | 'operator', { email: string; password: string }>;
}

export interface DemoServer extends DemoAddress {
  /** The partner API, called as a partner app would. */
  partner(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * A real `pxs serve` with the demo seeded, as `npm start` runs it: on an in-memory PGlite, or, when DATABASE_URL
 * is set, on a fresh PostgreSQL database of its own (and REDIS_URL with a prefix of its own). The demo's keys and
 * logins are read from what it prints at start.
 */
export async function startDemoServer(env: Record<string, string> = {}): Promise<DemoServer> {
  const database = await freshDatabase();
  const child = spawn(process.execPath, [...(STARTUP_FLAGS as string[]), SERVER_BIN, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: 'memory://',
      CONSOLE_DIR: CONSOLE_DIST,
      SEED_DEMO: 'true',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      RATE_LIMIT_PER_MINUTE: '100000',
      RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '100000',
      LOGIN_FAILURES_PER_ACCOUNT: '1000',
      LOGIN_FAILURES_PER_IP: '1000',
      ...(database ? { DATABASE_URL: database.url } : {}),
      ...(process.env.REDIS_URL
        ? { REDIS_URL: process.env.REDIS_URL, REDIS_KEY_PREFIX: `pxse2e-${randomBytes(4).toString('hex')}` }
        : {}),
      ...env,
    },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // Measured 29 s at a load average of 9 on two cores (migrations and the demo's seed on PGlite): leave room.
    const timer = setTimeout(() => reject(new Error(`pxs serve did not start:\n${output}`)), 150_000);
    child.stdout.on('data', (d) => {
      output += d;
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      // The demo's keys and logins are printed once the port is bound, after the line that says so.
      if (match && output.includes('Rates widget:')) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`pxs serve exited with ${code}:\n${output}`));
    });
  });
  // Keep reading, or a full pipe would stall the server's logging.
  child.stdout.on('data', () => undefined);
  const key = (type: string) => new RegExp(`^\\s+${type}\\s+(\\S+)$`, 'm').exec(output)?.[1] ?? '';
  const login = (role: string) => {
    const m = new RegExp(`^\\s+${role}\\s+(\\S+) / (\\S+)$`, 'm').exec(output);
    return { email: m?.[1] ?? '', password: m?.[2] ?? '' };
  };
  return demoServerAt(
    {
      url,
      keys: { branch: key('branch'), public: key('public'), personal: key('personal') },
      logins: { superadmin: login('superadmin'), admin: login('admin'), operator: login('operator') },
    },
    () => stop(child).then(() => database?.drop()),
  );
}

/** A demo server already started (by this process or another), closed by `close`. */
export function demoServerAt(address: DemoAddress, close: () => Promise<void>): DemoServer {
  return {
    ...address,
    async partner(method, path, k, body) {
      const res = await fetch(`${address.url}/api/v1/partner${path}`, {
        method,
        headers: {
          authorization: `Bearer ${k}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    close,
  };
}

async function stop(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  const admin = process.env.DATABASE_URL;
  if (!admin) return undefined;
  const name = `pxs_e2e_${randomBytes(6).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
