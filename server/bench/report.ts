import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describeClusters } from './clusters.js';
import { describeNoise, describeShares, NOISE_COLUMNS } from './noise.js';
import { P99_TARGET_MS, PACED_MAX_RATE, type Measured } from './load.js';
import { DISTURBANCE, REMEASURE_BUDGET, SLICE_DISTURBANCE, SLICE_REMEASURE_BUDGET } from './remeasure.js';

export interface Row { label: string; name: string; m: Measured; rssMb: number; ratio?: number; note: string }
export interface WebhookFigures { deliveriesPerSecond: number; lagP99Ms: number; fanout100Ms?: number; detail?: string }

const TARGETS = { readRatio: 0.7, writeRatio: 0.5, p99Ms: P99_TARGET_MS, rssMb: 200 };

/** The markdown report: one table of endpoints with ratios to baseline (b), and the webhook figures. */
export function renderReport(r: { rows: Row[]; webhooks?: WebhookFigures; quick: boolean; machine: string; versions: string; date: string; seconds: number }): string {
  const lines = [
    `## Benchmark ${r.quick ? '(quick)' : '(full)'} — ${r.date}`,
    '',
    `Machine: ${r.machine}. ${r.versions}. Run took ${r.seconds} s.`,
    '',
    `| process | endpoint | req/s (max) | p50 ms | p99 ms | steal % / other CPU % of each slice ⁴ | p99 ms @ 50% load | ${NOISE_COLUMNS} ¹ | peak RSS MB | ratio to (b) | target |`,
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of r.rows) {
    const target = row.ratio === undefined ? '' : verdict(row);
    lines.push(`| ${row.label} | ${row.name} | ${Math.round(row.m.max.rps)} | ${row.m.max.p50} | ${row.m.max.p99} | ${sliceDisturbance(row.m.max.slices)} | ${row.m.half?.p99 ?? '—'} | ${disturbance(row)} | ${row.rssMb} | ${row.ratio === undefined ? '—' : row.ratio.toFixed(2)} | ${target}${row.note ? ` ${row.note}` : ''} |`);
  }
  const missed = r.rows.filter((row) => row.m.half && row.m.half.p99 >= TARGETS.p99Ms);
  if (missed.length > 0) {
    lines.push('', `Where the p99 at half load missed ${TARGETS.p99Ms} ms, the window's slow clusters (consecutive requests over ${TARGETS.p99Ms / 2} ms with one over ${TARGETS.p99Ms} ms; start in the window, requests, slowest):`, '');
    for (const row of missed) lines.push(`- ${row.label}, ${row.name}: ${describeClusters(row.m.half!.clusters)}`);
  }
  lines.push('', `¹ During the half-load window: the hypervisor's steal, as a share of the machine's CPU time and as its worst burst (the most steal of one CPU within 100–120 ms), other processes' CPU, as a share of the machine's CPU time, the CPU of outside processes that came and went during the window (a neighbour's burst), the disk's worst moment (the most time its completed writes and cache flushes took within one 20 ms interval), which every commit waits for, and the pages read back from disk after the kernel evicted them (these two are shown only). A window with ${DISTURBANCE.stealPct}% steal, a steal burst of ${DISTURBANCE.stealBurstMs} ms, ${DISTURBANCE.outsidePct}% other CPU or ${DISTURBANCE.shortLivedMs} ms short-lived or more is measured again (at most twice, and ${REMEASURE_BUDGET} times in the whole run); ² marks the second window, ³ the third, and ⁺ a disturbed window kept because no re-measure was left.`);
  lines.push('', `⁴ During each slice of the maximum-throughput measurement that was kept: the hypervisor's steal and other processes' CPU, as shares of the machine's CPU time. A slice of a pair (baseline (b) and a service) with ${SLICE_DISTURBANCE.stealPct}% steal or ${SLICE_DISTURBANCE.outsidePct}% other CPU or more is measured again (at most twice, and ${SLICE_REMEASURE_BUDGET} times in the whole run), with the same marks; the slices of baseline (a) and of the PGlite service are only metered.`);
  if (r.webhooks) lines.push('', ...webhookLines(r.webhooks));
  return lines.join('\n');
}

function webhookLines(w: WebhookFigures): string[] {
  const lines = ['| webhooks (one worker, local receiver) | value | target |', '|---|---:|---|'];
  lines.push(`| deliveries/s | ${Math.round(w.deliveriesPerSecond)} | ≥ 1000 ${w.deliveriesPerSecond >= 1000 ? '✅' : '❌'} |`);
  lines.push(`| delivery lag p99 at half that rate (ms) | ${Math.round(w.lagP99Ms)} | < 1000 ${w.lagP99Ms < 1000 ? '✅' : '❌'} |`);
  if (w.fanout100Ms !== undefined) lines.push(`| fan-out of one event to 100 webhooks, all delivered (ms) | ${Math.round(w.fanout100Ms)} | < 1000 ${w.fanout100Ms < 1000 ? '✅' : '❌'} |`);
  if (w.detail) lines.push('', w.detail);
  return lines;
}

function disturbance(row: Row): string {
  const h = row.m.half;
  if (!h) return '—';
  return `${describeNoise(h.noise)}${marks(h)}`;
}

function sliceDisturbance(slices: Measured['max']['slices']): string {
  return slices.map((s) => `${describeShares(s.noise)}${marks(s)}`).join(', ');
}

/** ² or ³: the second or third measurement was kept; ⁺: a disturbed one, with no re-measure left. */
function marks(m: { attempts: number; keptDisturbed: boolean }): string {
  return `${m.attempts > 1 ? ['', '', ' ²', ' ³'][m.attempts] ?? ` (${m.attempts})` : ''}${m.keptDisturbed ? ' ⁺' : ''}`;
}

function verdict(row: Row): string {
  const write = row.name.startsWith('POST /partner/orders');
  const ratioOk = row.ratio! >= (write ? TARGETS.writeRatio : TARGETS.readRatio);
  // Not measured is not missed: past the paced generator's rate there is no figure to judge (see PACED_MAX_RATE).
  const p99 = row.m.half === undefined
    ? `p99 not measured (half load ${Math.floor(row.m.max.rps / 2)} req/s, over the paced generator's ${PACED_MAX_RATE})`
    : `${row.m.half.p99 < TARGETS.p99Ms ? '✅' : '❌'} p99 < ${TARGETS.p99Ms} ms`;
  const rssOk = row.rssMb < TARGETS.rssMb;
  return `${ratioOk ? '✅' : '❌'} ratio ≥ ${write ? TARGETS.writeRatio : TARGETS.readRatio}, ${p99}, ${rssOk ? '✅' : '❌'} RSS < ${TARGETS.rssMb} MB`;
}

/** One measurement as the run reports it while it goes on: throughput, each slice's and the window's disturbance. */
export function progressLine(label: string, name: string, m: Measured): string {
  const h = m.half;
  const slices = m.max.slices.map((s) => `${describeShares(s.noise)}${s.attempts > 1 ? ` (slice ${s.attempts}, after ${s.discarded.map(describeShares).join(', ')})` : ''}`).join(', ');
  const line = `  ${label}: ${name} … ${Math.round(m.max.rps)} req/s (steal % / other CPU % of its slices: ${slices}), p99@50% ${h?.p99 ?? '—'} ms${h ? ` (steal ${h.noise.stealPct.toFixed(1)}%, steal burst ${h.noise.stealBurstMs} ms, other processes ${h.noise.outsidePct.toFixed(1)}%, short-lived ${h.noise.shortLivedMs} ms, disk stall ${h.noise.diskStallMs} ms${h.attempts > 1 ? `, window ${h.attempts}, after ${h.discarded.map(describeNoise).join('; ')} (${NOISE_COLUMNS})` : ''}; slow clusters ${describeClusters(h.clusters, 4)})` : ''}`;
  return m.max.errors > 0 || m.max.non2xx > 0 ? `${line}\n    (${m.max.errors} errors, ${m.max.non2xx} non-2xx)` : line;
}

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

/** Replaces the generated section of docs/benchmarks.md, keeping the hand-written analysis around it. */
export function writeResults(path: string, report: string): void {
  const doc = existsSync(path) ? readFileSync(path, 'utf8') : `# Benchmarks\n\n${START}\n${END}\n`;
  const [head, rest] = doc.includes(START) ? doc.split(START) : [`${doc}\n`, `\n${END}\n`];
  const tail = rest.includes(END) ? rest.slice(rest.indexOf(END) + END.length) : '\n';
  writeFileSync(path, `${head}${START}\n${report}\n${END}${tail}`);
}
