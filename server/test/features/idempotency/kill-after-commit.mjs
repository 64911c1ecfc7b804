// Test-only preload (crash.test.ts starts `pxs serve` with it): the process kills itself right after the commit
// of an idempotent request and before its answer. Plain JavaScript: node loads it as it is, before the CLI.
import { subscribe } from 'node:diagnostics_channel';

// The channel's name as src/features/idempotency/service.ts publishes it (COMMITTED_CHANNEL).
subscribe('pxs:idempotency:committed', () => process.kill(process.pid, 'SIGKILL'));
