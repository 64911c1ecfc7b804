import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Timing } from './load.js';
import type { Figure } from './scenario.js';

export interface Results {
  date: string;
  mode: 'full' | 'quick';
  /** `--only`: the text the measurements' names were filtered by. */
  only?: string;
  /** `--scale`: the scale scenarios, written to scale.json and never to the page's table. */
  scale?: boolean;
  seconds: number;
  machine: string;
  node: string;
  postgres: string;
  /** The 1-minute load average before the run (what else ran on a shared machine) and at its end (the bench's own included). */
  loadAverage: [number, number];
  timing: Timing;
  figures: (Figure & { scenario: string })[];
}

const n = (x: number | undefined) => (x === undefined ? '—' : x.toLocaleString('en'));
const failed = (count: number | undefined) => (count ? ` (${count} failed)` : '');

/** The results as the page shows them: one row per figure, baseline (b) beside the service. */
export function table(r: Results): string {
  const lines = [
    `${r.mode === 'full' ? 'Full' : 'Quick'}${r.scale ? ' scale' : ''} run of ${r.date.slice(0, 10)}${r.only ? ` (only "${r.only}")` : ''}, ${r.seconds} s: ${r.machine} (load average ${r.loadAverage.join(' → ')}); Node.js ${r.node}; PostgreSQL ${r.postgres}.`,
    '',
    '| scenario | measured | per s | p50 / p99 ms | peak RSS MB | baseline (b) per s | ratio | target |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const f of r.figures) {
    const latency = f.p50Ms === undefined ? '—' : `${f.p50Ms} / ${f.p99Ms}`;
    const baseline = f.baseline ? `${n(f.baseline.perSecond)}${failed(f.baseline.failed)}` : '—';
    const target = f.checks.map((c) => `${c.met ? '✅' : '❌'} ${c.target}`).join(', ');
    lines.push(
      `| ${f.scenario} | ${f.subject}: ${f.name}${failed(f.failed)} | ${n(f.perSecond)} | ${latency} | ${n(f.peakRssMb)} | ${baseline} | ${f.ratio?.toFixed(2) ?? '—'} | ${target} |`,
    );
  }
  return lines.join('\n');
}

/** One line per figure while the run goes on. */
export function progressLine(f: Figure): string {
  const against = f.baseline ? `, baseline (b) ${n(f.baseline.perSecond)}/s, ratio ${f.ratio!.toFixed(2)}` : '';
  return `  ${f.subject}: ${f.name}: ${n(f.perSecond)}/s${against}${failed(f.failed)}`;
}

const START = '<!-- bench:table:start -->';
const END = '<!-- bench:table:end -->';

/** Writes the results as JSON; a full run of everything also replaces the table of docs/performance.md. */
export function writeResults(r: Results, resultsDir: string, page: string): string {
  mkdirSync(resultsDir, { recursive: true });
  const complete = r.mode === 'full' && !r.only;
  const file = `${resultsDir}/${r.scale ? (complete ? 'scale' : 'scale-dev') : complete ? 'full' : 'dev'}.json`;
  writeFileSync(file, `${JSON.stringify(r, null, 2)}\n`);
  if (complete && !r.scale) {
    const doc = readFileSync(page, 'utf8');
    const at = doc.indexOf(START);
    const end = doc.indexOf(END);
    if (at < 0 || end < at) throw new Error(`${page} has no ${START} … ${END} section`);
    writeFileSync(page, `${doc.slice(0, at + START.length)}\n${table(r)}\n${doc.slice(end)}`);
  }
  return file;
}
