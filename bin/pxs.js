#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// V8 sizes its heap for this machine's memory (up to 4 GB of old space) and lets the old generation grow
// fourfold between collections, which took an API process past 250 MB under load. A 1.6 growth factor keeps
// it near 170 MB for about 5% of peak throughput (docs/benchmarks.md). A flag given to node wins:
// `node --heap-growing-percent=N bin/pxs.js …`.
if (!process.execArgv.some((arg) => arg.startsWith('--heap-growing-percent'))) setFlagsFromString('--heap-growing-percent=60');

await import('../dist/src/cli/main.js');
