#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { V8_FLAGS } from './v8-flags.js';

// A flag given to node wins, e.g. `node --heap-growing-percent=N bin/pxs.js …`.
const nameOf = (flag) => flag.replace(/^--(no-)?/, '').replace(/=.*/, '');
for (const flag of V8_FLAGS) {
  if (!process.execArgv.some((arg) => nameOf(arg) === nameOf(flag))) setFlagsFromString(flag);
}

await import('../dist/src/cli/main.js');
