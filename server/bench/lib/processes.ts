import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Child {
  process: ChildProcess;
  url: string;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb(): number;
  exited(): boolean;
  stop(): Promise<void>;
}

export interface ChildOptions {
  env?: Record<string, string>;
  /** Node options before the script: V8 flags, `--import tsx` for a TypeScript script. */
  nodeArgs?: string[];
  /** For a process that serves no HTTP: ready once its output has a line containing this. */
  readyLine?: string;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts a Node script on a free port (PORT) and waits until GET /health answers, or for its ready line. */
export async function startChild(script: string, args: string[], options: ChildOptions = {}): Promise<Child> {
  const { env = {}, nodeArgs = [], readyLine } = options;
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', readyLine ? 'pipe' : 'ignore', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  // Read to the end, so that a chatty child never blocks on a full pipe; only the start is kept.
  child.stdout?.on('data', (d) => {
    if (stdout.length < 65_536) stdout += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const ready = async () => {
    if (readyLine) return stdout.includes(readyLine);
    return fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
  };
  const deadline = Date.now() + 30_000;
  while (!(await ready())) {
    if (exited()) throw new Error(`${script} exited: ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not start within 30 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    process: child,
    url,
    exited,
    peakRssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    },
    stop: () =>
      new Promise((resolve) => {
        if (exited()) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
