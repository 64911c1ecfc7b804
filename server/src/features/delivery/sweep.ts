import type { Database } from '../../db/database.js';
import type { Metrics } from '../../http/metrics.js';
import { pruneDeliveries, pruneEvents, queueDepth, sweep } from './repository.js';

/**
 * One sweep with its metrics (abandoned, failed and pruned deliveries, queue depth); returns how many became due
 * again.
 */
export async function sweepAndMeasure(
  db: Database,
  metrics: Metrics,
  maxAttempts: number,
  retentionDays: number,
): Promise<number> {
  const r = await sweep(db, maxAttempts);
  if (r.abandoned) metrics.webhookDeliveries.inc({ outcome: 'abandoned' }, r.abandoned);
  if (r.failed) metrics.webhookDeliveries.inc({ outcome: 'failed' }, r.failed);
  const pruned = await pruneDeliveries(db, retentionDays);
  if (pruned) metrics.webhookDeliveriesPruned.inc(pruned);
  await pruneEvents(db, retentionDays);
  metrics.webhookQueueDepth.set(await queueDepth(db));
  return r.released;
}
