/**
 * Runs of consecutive requests slower than half of `slowMs` that contain one slower than `slowMs`: where they
 * start in the window (by schedule, at `rate` requests/s), how many requests and the slowest. One cluster at the
 * start of a window, or a few evenly spaced, point at different causes than scattered slow requests.
 */
export interface Cluster { atSeconds: number; requests: number; worstMs: number }

export function slowClusters(latencies: Float64Array, rate: number, slowMs: number): Cluster[] {
  const out: Cluster[] = [];
  for (let i = 0; i < latencies.length;) {
    if (!(latencies[i]! > slowMs)) { i++; continue; }
    let j = i;
    let worst = 0;
    while (j < latencies.length && latencies[j]! > slowMs / 2) worst = Math.max(worst, latencies[j++]!);
    out.push({ atSeconds: i / rate, requests: j - i, worstMs: Math.round(worst) });
    i = j;
  }
  return out;
}

export function describeClusters(found: Cluster[], max = 6): string {
  if (found.length === 0) return '—';
  const shown = found.slice(0, max).map((c) => `${c.atSeconds.toFixed(2)} s: ${c.requests} req ≤ ${c.worstMs} ms`);
  return shown.join('; ') + (found.length > max ? `; … ${found.length - max} more` : '');
}
