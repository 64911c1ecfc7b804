import { readdirSync, readFileSync } from 'node:fs';

// Linux reports CPU time in USER_HZ ticks, 100 per second on every architecture it exposes to user space.
export const MS_PER_TICK = 10;

/** CPU time used so far, in ms: of one process, and of all PostgreSQL processes together. */
export function cpuMs(pid: number): number {
  return MS_PER_TICK * (timesOf(pid)?.ticks ?? 0);
}

export function postgresCpuMs(): number {
  return MS_PER_TICK * processes().filter((p) => p.command === 'postgres').reduce((a, p) => a + p.ticks, 0);
}

export interface ProcessTimes { pid: number; command: string; kernelThread: boolean; ticks: number; childTicks: number }

export function processes(): ProcessTimes[] {
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
