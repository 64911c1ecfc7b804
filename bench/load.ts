import autocannon from 'autocannon';
import { paced } from './paced.js';

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
