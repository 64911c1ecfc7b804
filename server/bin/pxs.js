#!/usr/bin/env -S node --min-semi-space-size=16 --max-semi-space-size=16 --no-memory-reducer
import { setFlagsFromString } from 'node:v8';
import { STARTUP_FLAGS, V8_FLAGS } from './v8-flags.js';

// A flag given to node wins, e.g. `node --heap-growing-percent=N bin/pxs.js …`.
const nameOf = (flag) => flag.replace(/^--(no-)?/, '').replace(/=.*/, '');
const given = (flag) => process.execArgv.some((arg) => nameOf(arg) === nameOf(flag));
for (const flag of V8_FLAGS) {
  if (!given(flag)) setFlagsFromString(flag);
}

const missing = STARTUP_FLAGS.filter((flag) => !given(flag));
if (missing.length > 0 && ['serve', 'worker'].includes(process.argv[2])) {
  process.emitWarning(
    `node was started without ${missing.join(' ')}: run bin/pxs.js itself (as \`npm start\` does) or give node these flags; see "V8 settings" in docs/decisions.md`,
    'PxsStartupFlags',
  );
}

await import('../dist/src/cli/main.js');
