import { readFileSync } from 'node:fs';
import { watchMachine } from './machine-watch.js';
import { MS_PER_TICK, processes } from './process-times.js';

/**
 * What else took the machine's CPU during a measurement: time the hypervisor gave to other guests ("steal" in
 * /proc/stat), and CPU used by user-space processes that are not part of the measurement (the other brokers
 * this machine runs, their periodic health checks), both as shares of the machine's total CPU time. Kernel
 * threads are not counted as outside: their work (loopback networking, writeback of PostgreSQL's files) is
 * mostly done for the processes measured. A process that ends during the window is counted, through its
 * parent's waited-for-children time, with its whole life: the meter errs towards "disturbed".
 */
export interface Noise {
  stealPct: number;
  /**
   * The hypervisor's worst moment in the window: the most time, in ms, that it took from one CPU within 100–120 ms
   * (see machine-watch.ts).
   */
  stealBurstMs: number;
  outsidePct: number;
  /** CPU in ms of outside processes that began during the window, and of children that ended in it: a neighbour's burst. */
  shortLivedMs: number;
  /**
   * The disk's worst moment in the window: the most time, in ms, that the writes and cache flushes completed within
   * one 20 ms interval took together (PostgreSQL's commits wait for them).
   */
  diskStallMs: number;
  /** Pages read back from disk after the kernel had evicted them (major faults and page-cache refaults). */
  pagedIn: number;
}

/** Processes that belong to a measurement besides the service and the generator: the servers it uses. */
const MEASURED_COMMANDS = new Set(['postgres', 'redis-server']);

/**
 * A neighbour's burst hides in a window's mean: RabbitMQ's check of its port mapper boots an Erlang VM every
 * 60 s, about 300 ms of CPU, 1.3% of a 12 s window on two cores, yet it held one core while a 100-request
 * stall of 222 ms built up. Such bursts are short-lived processes, so the meter also counts apart the CPU of
 * outside processes that began during the window and of children that ended in it (their parents'
 * waited-for-children time). The meter reads the processes' CPU figures only at the start and the end of a window:
 * sampling them every half-second from the generator put slow clusters at every half-second. Only the disk and each
 * CPU's steal are sampled (two small files, every 20 ms, from the bench's main process: see machine-watch.ts).
 */
export function startNoiseMeter(...measuredPids: (number | undefined)[]): () => Noise {
  const sharesOf = startShareMeter(...measuredPids);
  const pagedInBefore = pagedIn();
  const watch = watchMachine();
  return () => {
    const shares = sharesOf();
    const { diskStallMs, stealBurstMs } = watch.stop();
    return { ...shares, stealBurstMs, diskStallMs, pagedIn: pagedIn() - pagedInBefore };
  };
}

/** What the meter reads only at the start and the end of a measurement. */
export type Shares = Pick<Noise, 'stealPct' | 'outsidePct' | 'shortLivedMs'>;

/**
 * The shares alone, with no sampling in between: for a slice of maximum throughput, whose mean only the shares
 * move, measured by autocannon in this process, where a sampler every 20 ms would take from it.
 */
export function startShareMeter(...measuredPids: (number | undefined)[]): () => Shares {
  const before = machineTimes();
  const outsideBefore = outsideTimes(measuredPids);
  return () => {
    const after = machineTimes();
    const total = after.total - before.total;
    let outside = 0;
    let shortLived = 0;
    for (const [key, now] of outsideTimes(measuredPids)) {
      const was = outsideBefore.get(key);
      outside += now.ticks - (was?.ticks ?? 0);
      shortLived += was ? now.childTicks - was.childTicks : now.ticks;
    }
    const pct = (ticks: number) => (total > 0 ? (100 * ticks) / total : 0);
    return { stealPct: pct(after.steal - before.steal), outsidePct: pct(outside), shortLivedMs: shortLived * MS_PER_TICK };
  };
}

/**
 * Pages the machine had to read back: major faults (code or mapped files) and refaults of evicted page cache
 * (PostgreSQL's files). A host may evict memory that was idle for a while (this one runs DAMON's "pageout" on
 * regions unused for 30 s), and reading it back stalls whatever needed it.
 */
function pagedIn(): number {
  const vmstat = readFileSync('/proc/vmstat', 'utf8');
  const count = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(vmstat)?.[1] ?? 0);
  return count('pgmajfault') + count('workingset_refault_file') + count('workingset_refault_anon');
}

/** The heading of the figures that describeNoise gives, in the same order. */
export const NOISE_COLUMNS = 'steal % / steal burst ms / other CPU % / short-lived ms / disk stall ms / paged in';

/** A slice's figures as the bench shows them: steal % / other CPU %. */
export function describeShares(n: Shares): string {
  return `${n.stealPct.toFixed(1)} / ${n.outsidePct.toFixed(1)}`;
}

/** As the bench's tables show it: the figures of NOISE_COLUMNS. */
export function describeNoise(n: Noise): string {
  return `${n.stealPct.toFixed(1)} / ${n.stealBurstMs} / ${n.outsidePct.toFixed(1)} / ${n.shortLivedMs} / ${n.diskStallMs} / ${n.pagedIn}`;
}

function machineTimes(): { total: number; steal: number } {
  // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
  const fields = readFileSync('/proc/stat', 'utf8').slice(0, 200).split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] };
}

/** CPU ticks of each user-space process outside the measurement, by `pid:command`: in all, and of its waited-for children. */
function outsideTimes(measuredPids: (number | undefined)[]): Map<string, { ticks: number; childTicks: number }> {
  const out = new Map<string, { ticks: number; childTicks: number }>();
  for (const p of processes()) {
    if (p.pid === process.pid || measuredPids.includes(p.pid) || MEASURED_COMMANDS.has(p.command) || p.kernelThread) continue;
    out.set(`${p.pid}:${p.command}`, { ticks: p.ticks, childTicks: p.childTicks });
  }
  return out;
}
