import autocannon from 'autocannon';
import { startNoiseMeter, startShareMeter, type Noise, type Shares } from './noise.js';
import { slowClusters, type Cluster } from './clusters.js';
import { pacedGenerator } from './paced-process.js';
import { slices as slicePolicy, untilQuiet, windows as windowPolicy, type Kept } from './remeasure.js';

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
  /** With each slice kept: its figures, its disturbance, and how many were measured for it. */
  max: LoadResult & { slices: Slice[] };
  /**
   * p99 with the offered load held at half the measured maximum (absent where the generator cannot pace it).
   * `keptDisturbed`: the window was disturbed, but the re-measures allowed were spent.
   */
  half?: LoadResult & Kept<Noise> & { clusters: Cluster[] };
}

export interface Seconds {
  warmup: number;
  /** Length of the maximum-throughput measurement, made of `slices` runs (interleaved in a pair). */
  max: number;
  slices: number;
  half: number;
  /** Half-load windows, and the paired slices of maximum throughput, measured again when disturbed (none in the quick run). */
  remeasure: boolean;
}

/** A process under load: its URL, the request it is sent, and its pid for the noise meter. */
export interface Subject { url: string; target: Target; pid?: number }

const CONNECTIONS = 32;

/**
 * Warm up, find the maximum throughput with autocannon, then measure latency at a steady half of it. A target
 * faster than twice PACED_MAX_RATE (baseline (a)) gets no half-load figure.
 */
export async function measure(subject: Subject, seconds: Seconds): Promise<Measured> {
  await load(subject.url, subject.target, { connections: CONNECTIONS, seconds: seconds.warmup });
  const slices: Slice[] = [];
  for (let i = 0; i < seconds.slices; i++) slices.push(await slice(subject, seconds, { remeasure: false }));
  const max = combine(slices);
  return { max, half: await halfLoad(subject, max.rps, seconds) };
}

/**
 * Baseline (b) and the service for one endpoint. Their maximum throughputs are measured in alternating slices
 * (b, service, b, service …), so that a change in the shared VM's speed during the pair (another guest's load,
 * which came and went within tens of seconds) touches both sides of their ratio alike. `between` runs after
 * every slice (removing created orders, so that each slice sees the same data). Without `baselineHalf`, only
 * the service's half load is measured (baseline (b)'s was measured in an earlier pair).
 */
export async function measurePair(b: Subject, service: Subject, seconds: Seconds, options: PairOptions = {}): Promise<[Measured, Measured]> {
  const { between = async () => undefined, baselineHalf = true } = options;
  for (const x of [b, service]) {
    await load(x.url, x.target, { connections: CONNECTIONS, seconds: seconds.warmup });
    await between();
  }
  const slices: [Slice[], Slice[]] = [[], []];
  for (let i = 0; i < seconds.slices; i++) {
    for (const [k, x] of [b, service].entries()) {
      slices[k].push(await slice(x, seconds, { remeasure: seconds.remeasure, between }));
      await between();
    }
  }
  const maxB = combine(slices[0]);
  const maxS = combine(slices[1]);
  const halfB = baselineHalf ? await halfLoad(b, maxB.rps, seconds) : undefined;
  await between();
  const halfS = await halfLoad(service, maxS.rps, seconds);
  await between();
  return [{ max: maxB, half: halfB }, { max: maxS, half: halfS }];
}

export interface PairOptions { between?: () => Promise<void>; baselineHalf?: boolean }

export type Slice = LoadResult & Kept<Shares>;

/**
 * One slice of a maximum-throughput measurement, metered for the shares of the machine taken from it. At full load
 * a side's throughput falls by about that share, and a ratio compares two sides' slices: in run KK the exchanges
 * list measured 0.50 and the offers page 0.56 of baseline (b), because the service's slices fell into the stolen
 * seconds and (b)'s, between them, did not. A paired slice so disturbed is measured again (`between` first, so
 * that it sees the same data). autocannon runs in this process, which the meter never counts as outside.
 */
function slice(x: Subject, seconds: Seconds, options: { remeasure: boolean; between?: () => Promise<void> }): Promise<Slice> {
  return untilQuiet(slicePolicy, options.remeasure, async () => {
    const sharesOf = startShareMeter(x.pid);
    const result = await load(x.url, x.target, { connections: CONNECTIONS, seconds: seconds.max / seconds.slices });
    return { ...result, noise: sharesOf() };
  }, options.between);
}

/** Slices of equal length: mean throughput and p50; the worst slice's p99 (autocannon gives no histogram to merge). */
function combine(slices: Slice[]): Measured['max'] {
  const mean = (f: (r: LoadResult) => number) => slices.reduce((a, r) => a + f(r), 0) / slices.length;
  return {
    rps: mean((r) => r.rps),
    p50: Math.round(mean((r) => r.p50)),
    p99: Math.max(...slices.map((r) => r.p99)),
    errors: slices.reduce((a, r) => a + r.errors, 0),
    non2xx: slices.reduce((a, r) => a + r.non2xx, 0),
    slices,
  };
}

/** Latency at a steady half of `maxRps`, the window measured again when disturbed (see remeasure.ts). */
async function halfLoad(x: Subject, maxRps: number, seconds: Seconds): Promise<Measured['half']> {
  const rate = Math.max(1, Math.floor(maxRps / 2));
  if (rate > PACED_MAX_RATE) return undefined;
  const generator = await pacedGenerator();
  return untilQuiet(windowPolicy, seconds.remeasure, async () => {
    const noiseOf = startNoiseMeter(x.pid, generator.pid);
    // A failed run stops the meter too, or its sampling would go on for the rest of the bench.
    const { latencies, ...half } = await generator.run(x.url, x.target, rate, seconds.half).catch((err: unknown) => { noiseOf(); throw err; });
    return { ...half, noise: noiseOf(), clusters: slowClusters(latencies, rate, P99_TARGET_MS) };
  });
}

/**
 * The fastest load the paced generator has been shown to hold: against a node:http server answering a fixed page,
 * in the generator's own process, it timed a p99 of 2–3 ms at 8,000, 10,000 and 12,000 requests/s (on the AMD host;
 * 31–46 µs of CPU per request for the two together). The limit of 5,000 before it dated from a generator built on
 * node:http's client; at 5,500, half of a quick run's maximum, the exchanges list was left without a figure
 * where it had one to give: 50 ms for the service, 9 ms for baseline (b), which also met at 6,000 (9 ms).
 */
export const PACED_MAX_RATE = 12_000;
/** The p99 target at half load: the threshold of a slow cluster. */
export const P99_TARGET_MS = 25;
