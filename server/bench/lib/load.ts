import autocannon from 'autocannon';

export interface Request {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Throughput counts answered 2xx requests only; latencies in ms; `failed`: errors, timeouts and non-2xx. */
export interface Load {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
}

/** The lengths of a measurement: a warm-up, then `slices` slices of `slice` seconds each; `connections` (32 unless given) at once. */
export interface Timing {
  warmup: number;
  slice: number;
  slices: number;
  connections?: number;
}

/** A process under load and the request it is sent; several processes share the connections. */
export interface Side {
  url: string | string[];
  request: Request;
}

const CONNECTIONS = 32;

/** One autocannon run at full speed. */
export async function load(side: Side, seconds: number, connections = CONNECTIONS): Promise<Load> {
  const { request } = side;
  const result = await autocannon({
    // autocannon spreads the connections over several URLs; its types declare one.
    url: (Array.isArray(side.url) ? side.url.map((u) => u + request.path) : side.url + request.path) as string,
    method: request.method,
    headers: { ...request.headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    body: request.body,
    connections,
    duration: seconds,
  });
  return {
    rps: result['2xx'] / seconds,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
  };
}

/** Warm up, then the maximum throughput over the slices. */
export async function measure(side: Side, timing: Timing): Promise<Load> {
  await load(side, timing.warmup);
  const slices: Load[] = [];
  for (let i = 0; i < timing.slices; i++) slices.push(await load(side, timing.slice));
  return combine(slices);
}

/**
 * A baseline and the service in alternating slices: a, b, a, b … A shared machine's speed changes within seconds;
 * measured one after the other, the two sides of a ratio could see two different machines. The ratio is the median
 * of the ratios of each pair of neighbouring slices, so that a slice that met a neighbour's burst does not decide it.
 * `between` runs after each slice (a write endpoint's rows are removed, so that every slice sees the same data).
 */
export async function measurePair(
  pair: [Side, Side],
  timing: Timing,
  between: () => Promise<void> = async () => undefined,
): Promise<{ sides: [Load, Load]; ratio: number; ratios: number[] }> {
  for (const side of pair) {
    await load(side, timing.warmup, timing.connections);
    await between();
  }
  const slices: [Load[], Load[]] = [[], []];
  for (let i = 0; i < timing.slices; i++) {
    for (const k of [0, 1] as const) {
      slices[k].push(await load(pair[k], timing.slice, timing.connections));
      await between();
    }
  }
  const ratios = slices[1].map((s, i) => s.rps / slices[0][i].rps).sort((x, y) => x - y);
  const mid = ratios.length / 2;
  const ratio = Number.isInteger(mid) ? (ratios[mid - 1] + ratios[mid]) / 2 : ratios[Math.floor(mid)];
  return { sides: [combine(slices[0]), combine(slices[1])], ratio, ratios: ratios.map((r) => Number(r.toFixed(3))) };
}

/** Slices of equal length: mean throughput and p50, the worst slice's p99 (autocannon gives no histogram to merge). */
function combine(slices: Load[]): Load {
  const mean = (f: (l: Load) => number) => slices.reduce((a, l) => a + f(l), 0) / slices.length;
  return {
    rps: Math.round(mean((l) => l.rps)),
    p50Ms: Math.round(mean((l) => l.p50Ms)),
    p99Ms: Math.max(...slices.map((l) => l.p99Ms)),
    failed: slices.reduce((a, l) => a + l.failed, 0),
  };
}
