import { Agent, request } from 'node:http';
import autocannon from 'autocannon';

export interface Target {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions { connections: number; seconds: number; rate?: number }

/** One autocannon run; latencies in ms, throughput in requests/s (2xx only counted as served). */
export async function load(url: string, target: Target, options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: url + target.path,
    method: target.method,
    headers: { ...target.headers, ...(target.body ? { 'content-type': 'application/json' } : {}) },
    body: target.body,
    connections: options.connections,
    duration: options.seconds,
    overallRate: options.rate,
    pipelining: 1,
  });
  return {
    rps: result['2xx'] / options.seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export interface Measured {
  max: LoadResult;
  /** p99 with the offered load held at half the measured maximum (absent where the generator cannot pace it). */
  half?: LoadResult;
}

/**
 * Warm up, find the maximum throughput with autocannon, then measure latency at a steady half of it. The
 * paced generator is one Node process: past ~5,000 requests/s it would measure itself, so faster targets
 * (baseline (a)) get no half-load figure.
 */
export async function measure(url: string, target: Target, seconds: { warmup: number; max: number; half: number }, connections = 32): Promise<Measured> {
  await load(url, target, { connections, seconds: seconds.warmup });
  const max = await load(url, target, { connections, seconds: seconds.max });
  const rate = Math.max(1, Math.floor(max.rps / 2));
  const half = rate <= PACED_MAX_RATE ? await paced(url, target, rate, seconds.half) : undefined;
  return { max, half };
}

const PACED_MAX_RATE = 5000;

/**
 * An open-loop load at an even `rate`: request i is sent at start + i/rate whatever the answers, and its
 * latency counts from that moment (no coordinated omission). autocannon's own rate option sends each second's
 * budget back to back at the start of the second (lib/httpClient.js), which measures a burst at full speed,
 * not latency at half load.
 */
export async function paced(url: string, target: Target, rate: number, seconds: number): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const headers = { ...target.headers, ...(target.body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(target.body)) } : {}) };
  const total = Math.floor(rate * seconds);
  // Preallocated and without a promise per request: garbage in the generator would pause it and show up as
  // the service's latency.
  const latencies = new Float64Array(total);
  let done = 0;
  let errors = 0;
  let non2xx = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => { finished = resolve; });
  const complete = () => { if (++done === total) finished(); };
  const start = performance.now();
  const send = (i: number, due: number) => {
    const req = request(url + target.path, { method: target.method, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => {
        latencies[i] = performance.now() - due;
        if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
        complete();
      });
    });
    req.on('error', () => { latencies[i] = Number.NaN; errors++; complete(); });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.end(target.body);
  };
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    while (sent < total && start + (sent * 1000) / rate <= now) { send(sent, start + (sent * 1000) / rate); sent++; }
    await new Promise((r) => setTimeout(r, 1));
  }
  if (total > 0) await allDone;
  agent.destroy();
  const answered = latencies.filter((l) => !Number.isNaN(l)).sort();
  const at = (q: number) => Math.round(answered[Math.min(answered.length - 1, Math.floor(q * answered.length))] ?? 0);
  return { rps: answered.length / seconds, p50: at(0.5), p99: at(0.99), errors, non2xx };
}
