import { Registry, collectDefaultMetrics } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { collectProcessMetrics } from '../../src/http/gc-metrics.js';

/** Every metric's name, type, labels and help, as a dashboard or an alert would rely on them. */
function shapes(registry: Registry): string[] {
  return registry.getMetricsAsArray().map((m) => {
    const { name, type, help, labelNames } = m as unknown as { name: string; type: string; help: string; labelNames: string[] };
    return `${name} ${type} [${labelNames.join(',')}] ${help}`;
  }).sort();
}

async function gcCount(registry: Registry, kind: string): Promise<number> {
  const metric = await registry.getSingleMetric('unit_nodejs_gc_duration_seconds')!.get();
  const values = metric.values as { metricName?: string; labels: Record<string, string | number>; value: number }[];
  return values.find((v) => v.metricName === 'unit_nodejs_gc_duration_seconds_count' && v.labels.kind === kind)?.value ?? 0;
}

describe('process metrics', () => {
  it('are the same metrics as prom-client\'s defaults, GC histogram included', () => {
    const ours = new Registry();
    collectProcessMetrics(ours, 'unit_');
    const defaults = new Registry();
    collectDefaultMetrics({ register: defaults, prefix: 'unit_' });
    expect(shapes(ours)).toEqual(shapes(defaults));
    expect(shapes(ours).some((s) => s.startsWith('unit_nodejs_gc_duration_seconds histogram [kind]'))).toBe(true);
  });

  it('count the collections since the last scrape, in every registry that shows them', async () => {
    const first = new Registry();
    const second = new Registry();
    collectProcessMetrics(first, 'unit_');
    collectProcessMetrics(second, 'unit_');
    const before = await gcCount(first, 'minor');
    // Garbage enough for several scavenges, kept alive briefly so that the compiler cannot elide it.
    const recent: object[] = [];
    for (let i = 0; i < 3_000_000; i++) {
      recent.push({ i });
      if (recent.length === 100_000) recent.length = 0;
    }
    const after = await gcCount(first, 'minor');
    expect(after).toBeGreaterThan(before);
    expect(await gcCount(second, 'minor')).toBe(after);
  });
});
