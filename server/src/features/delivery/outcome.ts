import type { AttemptResult } from './sender.js';

/** One attempt's result, for the delivery it belongs to. */
export interface Outcome extends AttemptResult {
  id: string;
  webhookId: string;
  attempt: number;
}

export interface RecordSettings {
  workerId: string;
  maxAttempts: number;
  retryBaseMs: number;
  deactivateAfter: number;
}

export interface Recorded {
  succeeded: number;
  retried: number;
  failed: number;
  abandoned: number;
  nextDue: Date | null;
}
