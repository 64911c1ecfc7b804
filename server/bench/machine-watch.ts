import { readdirSync, readFileSync } from 'node:fs';
import { MS_PER_TICK } from './process-times.js';

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
export function watchMachine(): { stop(): { diskStallMs: number; stealBurstMs: number } } {
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
