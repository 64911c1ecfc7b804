import { connect, type Socket } from 'node:net';
import type { LoadResult, Target } from './load.js';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
const STATUS = /^HTTP\/1\.1 (\d{3})/;
const CHUNKED = /\r\ntransfer-encoding:\s*chunked/i;
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

/**
 * An open-loop load at an even `rate`: request i is sent at start + i/rate whatever the answers, and its latency
 * counts from that moment (no coordinated omission). It writes one pre-built request per keep-alive connection
 * and reads answers by their Content-Length, so that the generator, which shares the machine's cores with the
 * service and PostgreSQL, spends a fraction of what node:http's client would (its own queueing and
 * collections would otherwise count as the service's latency). autocannon's own rate option sends each
 * second's budget back to back at the start of the second (lib/httpClient.js), which measures a burst at full
 * speed, not latency at half load.
 */
export async function paced(url: string, target: Target, rate: number, seconds: number): Promise<LoadResult & { latencies: Float64Array }> {
  const { latencies, errors, non2xx } = await pacedLatencies(url, target, rate, seconds);
  const measured = latencies.filter((l) => !Number.isNaN(l)).sort();
  const at = (q: number) => Math.round(measured[Math.min(measured.length - 1, Math.floor(q * measured.length))] ?? 0);
  return { rps: measured.length / seconds, p50: at(0.5), p99: at(0.99), errors, non2xx, latencies };
}

/**
 * The same load, with every request's latency in ms by its index (NaN for a request that failed), in send order,
 * and the wall-clock time (ms since the epoch) when the timed part began, to match clusters with other logs.
 */
export async function pacedLatencies(url: string, target: Target, rate: number, seconds: number): Promise<{ latencies: Float64Array; errors: number; non2xx: number; timedFrom: number }> {
  const { hostname, port } = new URL(url);
  const body = target.body ?? '';
  const headers = Object.entries({ ...target.headers, ...(target.body ? { 'content-type': 'application/json' } : {}) })
    .map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const request = Buffer.from(`${target.method} ${target.path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

  // The first LEAD_IN_SECONDS of requests are sent at the same pace but not timed (see LEAD_IN_SECONDS).
  const leadIn = Math.floor(rate * LEAD_IN_SECONDS);
  const total = leadIn + Math.floor(rate * seconds);
  const latencies = new Float64Array(total).fill(Number.NaN);
  let done = 0;
  let errors = 0;
  let non2xx = 0;
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => { finished = resolve; });
  const answered = () => { if (++done === total) finished(); };

  interface Connection { socket: Socket; index: number; due: number; chunks: Buffer[]; size: number }
  const idle: Connection[] = [];
  const all = new Set<Connection>();
  // Requests that are due while every connection is busy, in order (see MAX_CONNECTIONS).
  const waiting: number[] = [];
  let nextWaiting = 0;
  let start = 0;
  const dueOf = (index: number) => start + (index * 1000) / rate;
  const open = (): Connection => {
    const c: Connection = { socket: connect({ host: hostname, port: Number(port), noDelay: true }), index: -1, due: 0, chunks: [], size: 0 };
    all.add(c);
    c.socket.on('data', (chunk: Buffer) => {
      c.chunks.push(chunk);
      c.size += chunk.length;
      const data = c.chunks.length === 1 ? chunk : Buffer.concat(c.chunks, c.size);
      const end = data.indexOf(HEADER_END);
      if (end < 0) return;
      const head = data.toString('latin1', 0, end);
      const complete = CHUNKED.test(head)
        ? data.subarray(data.length - LAST_CHUNK.length).equals(LAST_CHUNK)
        : c.size >= end + 4 + Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
      if (!complete) { c.chunks = [data]; return; }
      const status = Number(STATUS.exec(head)?.[1] ?? 0);
      if ((status < 200 || status >= 300) && c.index >= leadIn) non2xx++;
      latencies[c.index] = performance.now() - c.due;
      c.chunks = [];
      c.size = 0;
      c.index = -1;
      if (nextWaiting < waiting.length) dispatch(c, waiting[nextWaiting++]!);
      else idle.push(c);
      answered();
    });
    const fail = () => {
      all.delete(c);
      const i = idle.indexOf(c);
      if (i >= 0) idle.splice(i, 1);
      if (c.index >= 0) { if (c.index >= leadIn) errors++; c.index = -1; answered(); }
      if (nextWaiting < waiting.length && all.size < MAX_CONNECTIONS) dispatch(open(), waiting[nextWaiting++]!);
    };
    c.socket.on('error', fail);
    c.socket.on('close', fail);
    c.socket.setTimeout(30_000, () => c.socket.destroy());
    return c;
  };
  const dispatch = (c: Connection, index: number) => {
    c.index = index;
    c.due = dueOf(index);
    c.socket.write(request);
  };
  const send = (index: number) => {
    const c = idle.pop() ?? (all.size < MAX_CONNECTIONS ? open() : undefined);
    if (c) dispatch(c, index);
    else waiting.push(index);
  };

  // Connections are opened before the clock starts, as autocannon and wrk open theirs and as a partner's client
  // keeps a pool: opened on demand, the first 30-40 ms of every window measured a storm of connection setups
  // (each request found every connection busy and opened another, and the accepts slowed the server further).
  const ready = Array.from({ length: preopenedConnections(rate) }, () => open());
  await Promise.all(ready.map((c) => new Promise<void>((resolve) => {
    c.socket.once('connect', resolve);
    c.socket.once('error', () => resolve());
  })));
  idle.push(...ready.filter((c) => all.has(c)));

  start = performance.now();
  let sent = 0;
  while (sent < total) {
    const now = performance.now();
    while (sent < total && dueOf(sent) <= now) send(sent++);
    await new Promise((r) => setTimeout(r, 1));
  }
  if (total > 0) await allDone;
  for (const c of all) c.socket.destroy();
  // From the wall clock now rather than timeOrigin, from which the monotonic clock drifts over a long process.
  return { latencies: latencies.slice(leadIn), errors, non2xx, timedFrom: Date.now() - performance.now() + dueOf(leadIn) };
}

/**
 * A window begins after its target has idled for a second or more (the generator's own warm-up, the cleanup
 * between processes). The first requests after such a spell waited 12–27 ms even for baseline (b), and up to
 * 63 ms for the service, against 1–9 ms after an idle of 100 ms: a cold start, not the steady state that "p99
 * at half load" asks about. So each window starts with half a second at its own rate that is not timed.
 */
const LEAD_IN_SECONDS = 0.5;

/**
 * At most this many connections, as wrk2 keeps a fixed set: a request due while all are busy waits in the generator,
 * and its latency still counts from when it was due. Opened on demand without a bound, a stall of half a second
 * at 2,700 requests/s became 1,300 new connections and as many requests parked in the service at once, whose
 * objects outlived the scavenges and filled the old generation: full collections every half second kept the
 * service behind for seconds (docs/benchmarks.md, change 26). A partner's HTTP client keeps a pool too.
 */
const MAX_CONNECTIONS = 64;

/** Enough for the steady state (rate × latency is a few at 2 ms) and a burst of 10 ms's requests. */
function preopenedConnections(rate: number): number {
  return Math.min(MAX_CONNECTIONS, Math.max(8, Math.ceil(rate / 100)));
}
