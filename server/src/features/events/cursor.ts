import { EventError } from './errors.js';

/**
 * A position in the feed: the writing transaction's id and the event's sequence number, the order the feed is
 * read in (see repository.ts). Written as "<transaction>.<sequence>"; "0.0" is the start.
 */
export interface Cursor {
  tx: string;
  seq: string;
}

export const START: Cursor = { tx: '0', seq: '0' };
const FORM = /^(\d{1,20})\.(\d{1,19})$/;

export function parseCursor(text: string | undefined): Cursor {
  if (text === undefined || text === '') return START;
  const m = FORM.exec(text);
  if (!m || BigInt(m[1]!) > 18446744073709551615n || BigInt(m[2]!) > 9223372036854775807n)
    throw EventError.cursorInvalid();
  return { tx: m[1]!, seq: m[2]! };
}

export function formatCursor(c: Cursor): string {
  return `${c.tx}.${c.seq}`;
}
