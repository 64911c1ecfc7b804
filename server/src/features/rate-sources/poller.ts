import type { Database } from '../../db/database.js';
import { OutageLog } from '../../db/outage-log.js';
import type { Metrics } from '../../http/metrics.js';
import type { Log } from '../../log.js';
import { parseQuotes, QuoteDocumentError } from './parsers.js';
import { MAX_DOCUMENT_BYTES, ReadFailed, readDocument } from './reader.js';
import * as repo from './repository.js';

/** What is done with what the poller reads: the offers priced from a source are re-priced or suspended. */
export interface QuoteSink {
  /** Called after each successful read, with the pairs as published: {"USD/RUB": "91.55"} (1 USD = 91.55 RUB). */
  applied(db: Database, sourceId: number, quotes: Readonly<Record<string, string>>, readAt: Date): Promise<void>;
  /** Called when a source has not succeeded for its maxAgeSeconds (each poll tick while that holds; must be idempotent). */
  stale(db: Database, sourceId: number, now: Date): Promise<void>;
}

/** What the poller uses of the process (an AppContext has it all). */
export interface PollerDeps {
  db: Database;
  metrics: Metrics;
  log: Log;
  config: { webhooks: { timeoutMs: number; allowPrivateUrls: boolean } };
}

export interface PollerOptions {
  /** The wait between two looks for due sources. */
  tickMs?: number;
}

export interface RatePoller {
  /** Finishes the reads in flight, then returns. */
  stop(): Promise<void>;
}

const TICK_MS = 500;
/** Reads in flight at once per process; a due source waits for a free one (its lease is taken only then). */
const CONCURRENCY = 8;
const MAX_ERROR_LENGTH = 300;

/**
 * The market rate poller, run by every worker process (docs/rates.md, "Rate sources"). At each tick it takes the
 * lease of the due sources it has room for (repository.claimDue: one read per source per interval however many
 * processes poll), reads each without holding up the next tick, records the outcome on the source and hands the
 * pairs to the sink; then tells the sink which sources are stale. A fault of the database, a source or the sink is
 * logged and the poller goes on: it never ends the process.
 */
export function startRatePoller(deps: PollerDeps, sink: QuoteSink, options: PollerOptions = {}): RatePoller {
  const tickMs = options.tickMs ?? TICK_MS;
  const outage = new OutageLog(deps.log, 'market rates are read again');
  const inFlight = new Set<Promise<void>>();
  /** The last fault logged per source, so a source failing the same way at every read is logged once. */
  const logged = new Map<number, string>();
  let running = true;
  let wakeUp: (() => void) | null = null;

  const poll = async (source: repo.ClaimedSource) => {
    const host = hostOf(source.url);
    const readAt = new Date();
    let quotes: Record<string, string>;
    try {
      const body = await readDocument(source.url, {
        timeoutMs: deps.config.webhooks.timeoutMs,
        maxBytes: MAX_DOCUMENT_BYTES,
        allowPrivateUrls: deps.config.webhooks.allowPrivateUrls,
      });
      quotes = parseQuotes(source.kind, body);
    } catch (err) {
      const known = err instanceof ReadFailed || err instanceof QuoteDocumentError;
      const message = (known ? err.message : 'the document could not be read').slice(0, MAX_ERROR_LENGTH);
      deps.metrics.rateSourceErrors.inc({ source_id: String(source.id) });
      if (logged.get(source.id) !== message) {
        logged.set(source.id, message);
        deps.log('warn', 'a rate source could not be read', { sourceId: source.id, host, error: message });
      }
      if (!known) deps.log('error', 'a rate source read failed unexpectedly', { sourceId: source.id, host, err });
      await repo.recordFailure(deps.db, source.id, message, new Date());
      return;
    }
    if (logged.delete(source.id)) deps.log('info', 'a rate source is read again', { sourceId: source.id, host });
    await repo.recordSuccess(deps.db, source.id, quotes, readAt);
    try {
      await sink.applied(deps.db, source.id, quotes, readAt);
    } catch (err) {
      deps.log('error', 'the quotes of a rate source could not be applied', { sourceId: source.id, err });
    }
  };

  const start = (source: repo.ClaimedSource) => {
    const task = poll(source)
      .catch((err: unknown) => outage.failed('a rate source read could not be recorded', err))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };

  const tellStale = async () => {
    const now = new Date();
    for (const id of await repo.staleSources(deps.db)) {
      try {
        await sink.stale(deps.db, id, now);
      } catch (err) {
        deps.log('error', 'a stale rate source could not be marked', { sourceId: id, err });
      }
    }
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    while (running) {
      try {
        const room = CONCURRENCY - inFlight.size;
        if (room > 0) for (const source of await repo.claimDue(deps.db, room)) start(source);
        await tellStale();
        outage.succeeded();
      } catch (err) {
        if (running) outage.failed('rate source polling failed', err);
      }
      if (running) await sleep(tickMs);
    }
  };
  const done = loop();

  return {
    async stop() {
      running = false;
      wakeUp?.();
      await done;
      await Promise.all(inFlight);
    },
  };
}

/** The host alone: a source's URL may carry an API key in its query, which never reaches the log. */
function hostOf(raw: string): string {
  try {
    return new URL(raw).host;
  } catch {
    return '(invalid url)';
  }
}
