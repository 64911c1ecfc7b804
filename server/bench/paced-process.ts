import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { LoadResult, Target } from './load.js';
import { paced } from './paced.js';
import { NODE_ARGS } from './v8.js';

/**
 * The paced generator in a process of its own. The bench's main process holds autocannon's state, the seeded
 * PGlite's WebAssembly memory and every result (340 MB resident): its own collections delayed the requests it
 * timed, and were counted as the service's latency. A fresh small process, with the service's V8 settings,
 * measures only the service.
 */
export interface PacedGenerator {
  pid: number;
  run(url: string, target: Target, rate: number, seconds: number): Promise<LoadResult & { latencies: Float64Array }>;
  stop(): void;
}

interface Job { url: string; target: Target; rate: number; seconds: number }

const self = fileURLToPath(import.meta.url);

let shared: Promise<PacedGenerator> | undefined;

/**
 * The run's one generator, forked and warmed by its first window and reused by the rest: a fork and a warm-up for
 * each window cost 1.5–2 s of it, a quarter of the quick run. Its heap stays small across windows (each window's
 * latencies leave it with the result).
 */
export function pacedGenerator(): Promise<PacedGenerator> {
  if (!shared) {
    const started = startPacedGenerator(() => { if (shared === started) shared = undefined; });
    shared = started;
  }
  return shared;
}

/** Ends the run's generator, if one was started; the next window would fork a new one. */
export async function stopPacedGenerator(): Promise<void> {
  const generator = shared;
  shared = undefined;
  (await generator?.catch(() => undefined))?.stop();
}

/** Forks a generator; `ended` is called when the process exits, so that a dead one is never handed out again. */
async function startPacedGenerator(ended: () => void): Promise<PacedGenerator> {
  const child = fork(self, ['--generator'], { execArgv: NODE_ARGS, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  child.once('exit', ended);
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`paced generator exited before it was ready (${code})`)));
  });
  return {
    pid: child.pid!,
    run: (url, target, rate, seconds) => new Promise((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error('paced generator has exited'));
      const onExit = (code: number | null) => reject(new Error(`paced generator exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (result) => {
        child.off('exit', onExit);
        resolve(result as LoadResult & { latencies: Float64Array });
      });
      child.send({ url, target, rate, seconds } satisfies Job);
    }),
    stop: () => { child.kill(); },
  };
}

if (process.argv.includes('--generator') && process.send) {
  process.on('message', (job: Job) => {
    void warmUp(job).then(() => paced(job.url, job.target, job.rate, job.seconds)).then((result) => process.send!(result));
  });
  process.on('disconnect', () => process.exit(0));
  process.send('ready');
}

/**
 * A new process runs the generator's code unoptimised and grows its heap through its first collections: the
 * first tenth of a second of a window, timed by a cold generator, had clusters of slow requests up to 118 ms in
 * every window. So before its first window the generator drives a server of its own for a second, answering a
 * body of that service's size at that window's rate; the service sees nothing of it. Later windows, at other rates
 * and sizes, find its code optimised and its heap grown.
 */
let warm = false;
async function warmUp(job: Job): Promise<void> {
  if (warm) return;
  const probe = await fetch(new URL(job.target.path, job.url), { method: job.target.method, headers: job.target.headers, body: job.target.body });
  const body = Buffer.from(await probe.arrayBuffer());
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await paced(`http://127.0.0.1:${port}`, job.target, job.rate, 1);
  await new Promise((resolve) => server.close(resolve));
  warm = true;
}
