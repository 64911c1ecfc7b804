import { grouped } from '../../../lib/format';

/** One field of a change: its value before and after (undefined: absent on that side). */
export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  changed: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The fields of a before/after pair, changed ones first, each once; timestamps that every write moves are left out.
 * Objects and arrays are opened down to their leaves ("contacts.phoneNumber", "schedule.0.openTime"), so a change
 * shows the value that moved rather than two blobs of JSON that differ somewhere.
 */
export function diff(before: unknown, after: unknown): FieldChange[] {
  const b = leaves(asRecord(before));
  const a = leaves(asRecord(after));
  const fields = [...new Set([...b.keys(), ...a.keys()])].filter((f) => f !== 'updatedAt');
  const rows = fields.map((field) => ({
    field,
    before: b.get(field),
    after: a.get(field),
    changed: !same(b.get(field), a.get(field)),
  }));
  return [...rows.filter((r) => r.changed), ...rows.filter((r) => !r.changed)];
}

function leaves(record: Record<string, unknown>, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, value] of Object.entries(record)) {
    const path = prefix + key;
    if (value !== null && typeof value === 'object' && Object.keys(value).length > 0)
      leaves(value as Record<string, unknown>, `${path}.`, out);
    else out.set(path, value);
  }
  return out;
}

export function show(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'null';
  if (typeof value === 'number') return grouped(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}
