import type { Noise, Shares } from './noise.js';

/**
 * When a measurement is taken again: one disturbed from outside the processes measured (the hypervisor's steal,
 * other processes' CPU: see noise.ts) is repeated at most twice, within a budget for the whole run, so that a full
 * run stays under the issue's ten minutes on a host that stays disturbed. The report shows the disturbance of the
 * measurement kept and how many were taken.
 */
export interface Policy<N> { disturbed(noise: N): boolean; left: number }

export const MAX_REMEASURES = 2;

/**
 * Above these, a half-load window measured the machine's neighbours more than the service: steal and other
 * processes' CPU as shares of the machine's CPU time over the window; a steal burst of 40 ms, four of /proc/stat's
 * 10 ms ticks on one CPU within 100–120 ms, against one or two in a quiet window (stops of 19–37 ms made clusters of
 * 71–92 ms, the queue behind a stop lasting longer than the stop); and the CPU of outside processes that came and
 * went in it (a quiet window has none).
 */
export const DISTURBANCE = { stealPct: 2, stealBurstMs: 40, outsidePct: 2, shortLivedMs: 100 };
/**
 * A run takes about 430 s with nothing measured again (runs LL, MM and NN) and 11–14 s more for each window; two that
 * used eight took 571 and 589 s on a host with 15–51% steal, which also slows every other step (before change 34,
 * which saved some 30 s a run).
 */
export const REMEASURE_BUDGET = 6;
export const windows: Policy<Noise> = {
  disturbed: (n) => n.stealPct >= DISTURBANCE.stealPct || n.stealBurstMs >= DISTURBANCE.stealBurstMs
    || n.outsidePct >= DISTURBANCE.outsidePct || n.shortLivedMs >= DISTURBANCE.shortLivedMs,
  left: REMEASURE_BUDGET,
};

/**
 * A slice's throughput is a mean over 5 s on a saturated machine: a burst that would make a cluster in a half-load
 * window costs it a few requests, and only the shares count. Above 5% of the machine's CPU, one side of a ratio
 * (the mean of two slices) could be 2.5% low; the read endpoints' ratios stood at 0.74–1.13 in the runs before.
 */
export const SLICE_DISTURBANCE = { stealPct: 5, outsidePct: 5 };
/** 5–7 s each (a slice, and the removal of created orders after order creation's): at most some 30 s more a run. */
export const SLICE_REMEASURE_BUDGET = 4;
export const slices: Policy<Shares> = {
  disturbed: (n) => n.stealPct >= SLICE_DISTURBANCE.stealPct || n.outsidePct >= SLICE_DISTURBANCE.outsidePct,
  left: SLICE_REMEASURE_BUDGET,
};

/** `discarded`: the disturbance of each measurement taken before the one kept, for the run's progress lines. */
export interface Kept<N> { noise: N; attempts: number; keptDisturbed: boolean; discarded: N[] }

/**
 * Takes a measurement until one is not disturbed, the measurement's two repeats are spent, or the policy's budget
 * is; `before` runs ahead of each repeat (the removal of created orders). Failed and non-2xx requests are counted
 * over every attempt, so that a discarded one cannot hide them.
 */
export async function untilQuiet<N, R extends { noise: N; errors: number; non2xx: number }>(
  policy: Policy<N>, remeasure: boolean, take: () => Promise<R>, before: () => Promise<void> = async () => undefined,
): Promise<R & Kept<N>> {
  let errors = 0;
  let non2xx = 0;
  const discarded: N[] = [];
  for (let attempts = 1; ; attempts++) {
    const r = await take();
    errors += r.errors;
    non2xx += r.non2xx;
    const isDisturbed = policy.disturbed(r.noise);
    const spent = attempts > MAX_REMEASURES || policy.left === 0;
    if (!remeasure || !isDisturbed || spent) return { ...r, errors, non2xx, attempts, keptDisturbed: remeasure && isDisturbed, discarded };
    policy.left--;
    discarded.push(r.noise);
    await before();
  }
}
