import { decimal } from '../../components/format';

/** One field of a change: its value before and after (undefined: absent on that side). */
export interface FieldChange { field: string; before: unknown; after: unknown; changed: boolean }

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The fields of a before/after pair, changed ones first, each once; timestamps that every write moves are left out. */
export function diff(before: unknown, after: unknown): FieldChange[] {
  const b = asRecord(before);
  const a = asRecord(after);
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => f !== 'updatedAt');
  const rows = fields.map((field) => ({ field, before: b[field], after: a[field], changed: !same(b[field], a[field]) }));
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}

export function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'null';
  if (typeof value === 'number') return decimal(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
