import type { Database } from '../../src/db/database.js';
import type { Load, Timing } from './load.js';
import type { BenchData } from './seed.js';

/** What every scenario is given: the run's bench database, migrated and seeded, and its options. */
export interface BenchContext {
  quick: boolean;
  timing: Timing;
  databaseUrl: string;
  db: Database;
  data: BenchData;
  /** Whether a measurement of this name is part of the run (`--only <text>` keeps the names containing the text). */
  selected(name: string): boolean;
  progress(line: string): void;
}

/** A file of bench/scenarios/: it starts the processes it needs, measures them, stops them, and returns its figures. */
export interface Scenario {
  name: string;
  run(ctx: BenchContext): Promise<Figure[]>;
}

export interface Check {
  target: string;
  met: boolean;
}

/** One row of the results. `perSecond`: requests answered 2xx at full load, or deliveries. */
export interface Figure {
  name: string;
  subject: string;
  perSecond: number;
  p50Ms?: number;
  p99Ms?: number;
  peakRssMb?: number;
  failed?: number;
  /** The same request to baseline (b), measured in alternating slices with this one. */
  baseline?: { subject: string; perSecond: number; p50Ms: number; p99Ms: number; peakRssMb: number; failed: number };
  /** The service over the baseline: the median ratio of neighbouring slices (see measurePair). */
  ratio?: number;
  /** The ratio of each pair of neighbouring slices, in order of size. */
  sliceRatios?: number[];
  checks: Check[];
}

/** A load's figures in a Figure's fields. */
export function figures(l: Load): Pick<Figure, 'perSecond' | 'p50Ms' | 'p99Ms' | 'failed'> {
  return { perSecond: l.rps, p50Ms: l.p50Ms, p99Ms: l.p99Ms, failed: l.failed };
}

export function atLeast(value: number, min: number, target: string): Check {
  return { target, met: value >= min };
}

export function below(value: number, max: number, target: string): Check {
  return { target, met: value < max };
}
