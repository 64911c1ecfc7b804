import { createRequire } from 'node:module';
import { GCProfiler } from 'node:v8';
import { Histogram, collectDefaultMetrics, type Registry } from 'prom-client';

const require = createRequire(import.meta.url);

/** V8's names for its collections (GCProfiler's gcType) → the `kind` label of prom-client's own GC histogram. */
const KINDS: Record<string, string> = {
  Scavenge: 'minor', MinorMarkCompact: 'minor', MinorMarkSweep: 'minor',
  MarkSweepCompact: 'major', IncrementalMarking: 'incremental', ProcessWeakCallbacks: 'weakcb',
};
/** Long enough to cost nothing, short enough that the profiler's buffer stays small (about 12 KB/s under load). */
const DRAIN_MS = 10_000;

type Collector = (registry: Registry, config: { prefix: string; eventLoopMonitoringPrecision: number }) => void;

/**
 * prom-client's default process metrics, with the GC histogram fed by V8's GCProfiler instead of prom-client's
 * `gc` performance observer. On Node 20 every `gc` performance entry is built with deprecated getters whose
 * wrappers change their prototypes: about 3.7 KB per collection that lived until the next mark-compact, most of
 * what the API process promoted (docs/benchmarks.md, change 35). The other collectors are prom-client's own, each a
 * module named in its public `metricsList`.
 */
export function collectProcessMetrics(registry: Registry, prefix: string): void {
  const config = { prefix, eventLoopMonitoringPrecision: 10 };
  for (const name of collectDefaultMetrics.metricsList) {
    if (name !== 'gc') (require(`prom-client/lib/metrics/${name}.js`) as Collector)(registry, config);
  }
  registry.registerMetric(gcHistogram(prefix));
}

/** The process's one recording of its collections, shared by every registry's histogram (one per name). */
const histograms = new Map<string, Histogram<'kind'>>();
let profiler: GCProfiler | undefined;

function drain(): void {
  if (!profiler) return;
  // stop() ends the recording and returns it; a collection while the next one starts is the only one missed.
  const { statistics } = profiler.stop() as { statistics: { gcType: string; cost: number }[] };
  profiler.start();
  for (const histogram of histograms.values()) {
    for (const gc of statistics) histogram.observe({ kind: KINDS[gc.gcType] ?? 'other' }, gc.cost / 1e6);
  }
}

/** The histogram of that name, made on first use; the recording is drained when one is scraped and every DRAIN_MS. */
function gcHistogram(prefix: string): Histogram<'kind'> {
  const name = `${prefix}nodejs_gc_duration_seconds`;
  let histogram = histograms.get(name);
  if (histogram) return histogram;
  histogram = new Histogram({
    name,
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'] as const,
    buckets: [0.001, 0.01, 0.1, 1, 2, 5],
    registers: [],
    collect: drain,
  });
  histograms.set(name, histogram);
  if (!profiler) {
    profiler = new GCProfiler();
    profiler.start();
    setInterval(drain, DRAIN_MS).unref();
  }
  return histogram;
}
