import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PXS_MAIN } from '../helpers/built-cli.js';
import { openTestDatabase, usingPostgres, type TestDatabase } from '../helpers/database.js';

/**
 * A database for `pxs` processes: embedded PGlite in a temporary DATA_DIR, or a fresh PostgreSQL database
 * when DATABASE_URL is set; and the environment that points the CLI at it.
 */
export interface CliDatabase {
  env: Record<string, string>;
  dataDir: string;
  pg?: TestDatabase;
  close(): Promise<void>;
}

export async function cliDatabase(): Promise<CliDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxs-cli-'));
  const pg = usingPostgres ? await openTestDatabase() : undefined;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    SEED_DEMO: 'false',
    DATA_DIR: dataDir,
    REDIS_KEY_PREFIX: `pxstest-cli-${randomBytes(3).toString('hex')}`,
    ...(pg?.url && { DATABASE_URL: pg.url }),
    ...(process.env.REDIS_URL && { REDIS_URL: process.env.REDIS_URL }),
  };
  return {
    env,
    dataDir,
    pg,
    async close() {
      await pg?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function spawnPxs(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [PXS_MAIN, ...args], { env, stdio: 'pipe' });
}

/**
 * The address a started `pxs serve` listens at, once it logs it, and everything it has written so far (stdout and
 * stderr); the address rejects with the end of that output if the process exits first.
 */
export function listeningAt(child: ChildProcessWithoutNullStreams): { url: Promise<string>; output: () => string } {
  let output = '';
  child.stderr.on('data', (d) => {
    output += d;
  });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      output += d;
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('close', (code) => reject(new Error(`serve exited with ${code}: ${output.slice(-3000)}`)));
  });
  return { url, output: () => output };
}

/** Runs `pxs` to completion: exit code, outputs, and stdout parsed as JSON when it is. */
export function runPxs(
  args: string[],
  env: Record<string, string>,
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string; json: any }> {
  return new Promise((resolve, reject) => {
    const child = spawnPxs(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        /* not JSON output */
      }
      resolve({ code, stdout, stderr, json });
    });
    child.stdin.end(input);
  });
}
