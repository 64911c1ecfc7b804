import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/database.js';
import { admin, createBenchDatabase, prepareDatabase } from './lib/database.js';
import type { Timing } from './lib/load.js';
import { progressLine, table, writeResults, type Results } from './lib/report.js';
import type { BenchContext, Scenario } from './lib/scenario.js';
import { cash } from './scenarios/cash.js';
import { catalog } from './scenarios/catalog.js';
import { endpoints } from './scenarios/endpoints.js';
import { pricing } from './scenarios/pricing.js';
import { runtime } from './scenarios/runtime.js';
import { scale } from './scenarios/scale.js';
import { scaleOut } from './scenarios/scale-out.js';
import { webhooks } from './scenarios/webhooks.js';

/** In this order; a new scenario is a file of scenarios/ and a line here. */
const SCENARIOS: Scenario[] = [runtime, endpoints, catalog, webhooks, cash, pricing];
/** `--scale`: a history of a million orders and ten million deliveries, and 2 + 2 processes (docs/scaling.md). */
const SCALE_SCENARIOS: Scenario[] = [scale, scaleOut];

const { values: args } = parseArgs({
  options: {
    // Short slices, for development: it shows that everything runs; its ratios are rough.
    quick: { type: 'boolean', default: false },
    // The measurements whose name contains the text, e.g. --only "POST /partner/orders".
    only: { type: 'string' },
    // The scale scenarios instead of the others; results in results/scale.json, docs/scaling.md quotes them.
    scale: { type: 'boolean', default: false },
  },
});
const timing: Timing = args.quick ? { warmup: 1, slice: 1, slices: 2 } : { warmup: 3, slice: 2, slices: 5 };
const here = fileURLToPath(new URL('.', import.meta.url));
const progress = (line: string) => process.stderr.write(`${line}\n`);

const started = Date.now();
const loadAverage = () => Number(loadavg()[0].toFixed(1));
const loadAtStart = loadAverage();
const bench = await createBenchDatabase();
try {
  progress(
    `bench (${args.scale ? 'scale, ' : ''}${args.quick ? 'quick' : 'full'}${args.only ? `, only "${args.only}"` : ''}): database ${bench.name}`,
  );
  const data = await prepareDatabase(bench.url);
  const handle = await openDatabase({ databaseUrl: bench.url, dataDir: 'memory://' });
  try {
    const ctx: BenchContext = {
      quick: args.quick,
      timing,
      databaseUrl: bench.url,
      db: handle.db,
      data,
      progress,
      selected: (name) => !args.only || name.includes(args.only),
    };
    const figures: Results['figures'] = [];
    for (const scenario of args.scale ? SCALE_SCENARIOS : SCENARIOS) {
      progress(`${scenario.name} …`);
      for (const f of await scenario.run(ctx)) {
        progress(progressLine(f));
        figures.push({ scenario: scenario.name, ...f });
      }
    }
    if (figures.length === 0) throw new Error(`no measurement's name contains "${args.only}"`);
    const results: Results = {
      date: new Date().toISOString(),
      mode: args.quick ? 'quick' : 'full',
      only: args.only,
      scale: args.scale || undefined,
      seconds: Math.round((Date.now() - started) / 1000),
      machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB`,
      node: process.version,
      postgres: await admin('show server_version'),
      loadAverage: [loadAtStart, loadAverage()],
      timing,
      figures,
    };
    const file = writeResults(results, join(here, 'results'), join(here, '../../docs/performance.md'));
    process.stdout.write(`${table(results)}\n\nWritten to ${file}\n`);
  } finally {
    await handle.close();
  }
} finally {
  await bench.drop();
}
