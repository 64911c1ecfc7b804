import type { Database } from '../../db/database.js';
import type { Metrics } from '../../http/metrics.js';
import type { Outcome, RecordSettings, Recorded } from './outcome.js';
import { recordOutcomes, recordSuccesses } from './repository.js';

/**
 * Records a batch of finished attempts, by the one-statement path when all of them succeeded (the usual case),
 * and counts the deliveries by outcome: success, retry (another attempt is due), failed (no more), abandoned.
 */
export async function recordBatch(
  db: Database,
  metrics: Metrics,
  batch: Outcome[],
  s: RecordSettings,
): Promise<Recorded> {
  const r = batch.every((o) => o.ok)
    ? await recordSuccesses(db, batch, s.workerId)
    : await recordOutcomes(db, batch, s);
  const m = metrics.webhookDeliveries;
  if (r.succeeded) m.inc({ outcome: 'success' }, r.succeeded);
  if (r.retried) m.inc({ outcome: 'retry' }, r.retried);
  if (r.failed) m.inc({ outcome: 'failed' }, r.failed);
  if (r.abandoned) m.inc({ outcome: 'abandoned' }, r.abandoned);
  return r;
}
