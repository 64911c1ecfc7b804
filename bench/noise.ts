import { readdirSync, readFileSync } from 'node:fs';

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
   * (see watchMachine).
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
 * CPU's steal are sampled (two small files, every 20 ms, from the bench's main process: see watchMachine).
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
 * The two things sampled every 20 ms, because a mean over the window hides the one moment that matters.
 *
 * The disk: every commit waits for it, so a slow disk makes order creation slow in the service and baseline (b)
 * alike: one window of (b) stalled 883 ms on that endpoint alone, with no steal and no outside CPU. On this VM, 8 KB
 * writes with fdatasync take 0.14 ms at the median and, now and then, over 100 ms; 18 of 20 clusters of order
 * creation's slow requests came with such a moment (docs/benchmarks.md, "runs U, V, W and X"). The disk is the service's
 * own resource, so this is shown, not counted as a disturbance.
 *
 * The hypervisor's steal, per CPU: it stops a whole vCPU at once, and whatever runs on it (the service's one
 * JavaScript thread, a PostgreSQL backend or the generator) stops too. A stop of 150 ms is 0.6% of a 12 s window
 * on two CPUs, far under the window's steal threshold, yet it makes a cluster of over 100 slow requests: a sleeper
 * pinned to each CPU at real-time priority saw gaps of 19–37 ms at the moments the service and baseline (b) had
 * clusters of 71–92 ms, and each gap showed in that CPU's steal in /proc/stat (docs/benchmarks.md, change 32).
 * The burst is the most steal of one CPU since the newest sample at least 100 ms old, so over 100–120 ms: several
 * short stops in that span add up, as they do for the requests. The span is longer when the sampler itself was
 * late, as it is when its own CPU was stopped: its next sample then covers the whole stop.
 */
function watchMachine(): { stop(): { diskStallMs: number; stealBurstMs: number } } {
  let lastDisk = diskBusyMs();
  let worstDisk = 0;
  let worstSteal = 0;
  const steals: { at: number; ticks: Map<number, number> }[] = [{ at: performance.now(), ticks: stealPerCpu() }];
  const sample = () => {
    const disk = diskBusyMs();
    worstDisk = Math.max(worstDisk, disk - lastDisk);
    lastDisk = disk;
    const now = { at: performance.now(), ticks: stealPerCpu() };
    while (steals.length > 1 && steals[1]!.at <= now.at - STEAL_BURST_SPAN_MS) steals.shift();
    const from = steals[0]!.ticks;
    // By CPU number: /proc/stat lists only the CPUs online, so a CPU that went offline is skipped, not mistaken for another.
    for (const [cpu, ticks] of now.ticks) {
      const was = from.get(cpu);
      if (was !== undefined) worstSteal = Math.max(worstSteal, (ticks - was) * MS_PER_TICK);
    }
    steals.push(now);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return { diskStallMs: worstDisk, stealBurstMs: worstSteal };
    },
  };
}

const SAMPLE_MS = 20;
const STEAL_BURST_SPAN_MS = 100;

/** Each CPU's steal so far, in ticks, by CPU number: the 8th field of its `cpuN` line in /proc/stat. */
function stealPerCpu(): Map<number, number> {
  const out = new Map<number, number>();
  for (const line of readFileSync('/proc/stat', 'utf8').split('\n')) {
    const cpu = /^cpu(\d+) /.exec(line)?.[1];
    const steal = Number(line.split(' ')[8]);
    if (cpu !== undefined && Number.isFinite(steal)) out.set(Number(cpu), steal);
  }
  return out;
}

/**
 * The ms that completed writes and cache flushes have taken, over the machine's whole disks (partitions would count
 * twice): in /proc/diskstats, the 8th and (from kernel 5.5) the 17th field after the device's name.
 */
function diskBusyMs(): number {
  let ms = 0;
  for (const line of readFileSync('/proc/diskstats', 'utf8').split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 14 || !DISKS.has(f[2]!)) continue;
    ms += Number(f[10]) + Number(f[19] ?? 0);
  }
  return ms;
}

const DISKS = new Set(readdirSync('/sys/block').filter((name) => !/^(loop|ram|zram|sr|dm-|md)/.test(name)));

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

// Linux reports CPU time in USER_HZ ticks, 100 per second on every architecture it exposes to user space.
const MS_PER_TICK = 10;

/** CPU time used so far, in ms: of one process, and of all PostgreSQL processes together. */
export function cpuMs(pid: number): number {
  return MS_PER_TICK * (timesOf(pid)?.ticks ?? 0);
}

export function postgresCpuMs(): number {
  return MS_PER_TICK * processes().filter((p) => p.command === 'postgres').reduce((a, p) => a + p.ticks, 0);
}

interface ProcessTimes { pid: number; command: string; kernelThread: boolean; ticks: number; childTicks: number }

function processes(): ProcessTimes[] {
  const out: ProcessTimes[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    const times = Number.isInteger(pid) ? timesOf(pid) : undefined;
    if (times) out.push(times);
  }
  return out;
}

/** A process's CPU ticks (user + system, with waited-for children), or undefined once it has ended. */
function timesOf(pid: number): ProcessTimes | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const KERNEL_THREAD = 0x00200000; // PF_KTHREAD in the flags field
    const childTicks = Number(f[13]) + Number(f[14]);
    return { pid, command, kernelThread: (Number(f[6]) & KERNEL_THREAD) !== 0, ticks: Number(f[11]) + Number(f[12]) + childTicks, childTicks };
  } catch {
    return undefined;
  }
}
