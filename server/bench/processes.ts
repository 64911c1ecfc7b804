import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface Child {
  process: ChildProcess;
  url: string;
  /** Peak resident set size of the process so far (VmHWM), in MB. */
  peakRssMb(): number;
  /** Whether the process has ended, by exiting or by a signal. */
  exited(): boolean;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts a Node script as a child process on a free port and waits until GET /health answers, or, for a process
 * that serves no HTTP, until its output has a line containing `readyLine`.
 */
export async function startChild(script: string, args: string[], env: Record<string, string>, nodeArgs: string[] = [], readyLine?: string): Promise<Child> {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', readyLine ? 'pipe' : 'ignore', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => { stderr += d; });
  // Read to the end, so a chatty child never blocks on a full pipe; only the start is kept.
  child.stdout?.on('data', (d) => { if (stdout.length < 65_536) stdout += d; });
  const url = `http://127.0.0.1:${port}`;
  const ready = async () => {
    if (readyLine) return stdout.includes(readyLine);
    try {
      return (await fetch(`${url}/health`)).ok;
    } catch {
      return false; // not listening yet
    }
  };
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited()) throw new Error(`${script} exited: ${stderr}`);
    if (await ready()) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, readyLine ? 20 : 100));
  }
  return {
    process: child,
    url,
    exited,
    peakRssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    stop: () => new Promise((resolve) => {
      if (exited()) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }),
  };
}
