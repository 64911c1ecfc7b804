import { createHash } from 'node:crypto';
import type { OrderStatus } from '../../db/schema.js';
import { Dec, normalize } from '../pricing/decimal.js';

/** The two printers a counter has: an A5 sheet, or an 80 mm thermal roll. */
export const PAPERS = ['a5', '80mm'] as const;
export type Paper = (typeof PAPERS)[number];

export interface ReceiptData {
  office: { name: string; address: string; city: string; timezone: string };
  order: {
    id: number;
    hashedId: string;
    status: OrderStatus;
    clientAmount: string;
    exchangeAmount: string;
    currency1: string;
    currency2: string;
    /** The currencies' decimals: an amount is printed with all of them, as a cashier counts it (38.70, not 38.7). */
    decimals1: number;
    decimals2: number;
    rate: string | null;
    /** The offer was quoted the other way round: its rate is currency1 per unit of currency2. */
    isReverse: boolean;
    createdAt: Date;
  };
  /** Who served the client: the counter order's cashier, or the staff user who last moved a partner order. */
  cashier: string | null;
  client: string | null;
}

const PAGE: Record<Paper, string> = {
  // A roll has no fixed length: the page is as long as the receipt, so it never breaks onto a second one.
  a5: '@page { size: A5 portrait; margin: 12mm; } body { font-size: 11pt; }',
  '80mm': '@page { size: 80mm 200mm; margin: 4mm; } body { font-size: 9pt; width: 72mm; }',
};

const BASE =
  'body { font-family: system-ui, sans-serif; color: #000; margin: 0; line-height: 1.35; }' +
  ' h1 { font-size: 1.3em; margin: 0 0 0.2em; } p { margin: 0 0 0.3em; }' +
  ' table { border-collapse: collapse; width: 100%; margin: 0.6em 0; } th { text-align: start; font-weight: normal; }' +
  ' th, td { padding: 0.15em 0; vertical-align: top; } td { text-align: end; font-variant-numeric: tabular-nums; }' +
  ' .signature { margin-top: 2.5em; border-top: 1px solid #000; padding-top: 0.2em; }' +
  ' @media print { html, body { break-inside: avoid; } }';

/** Each paper's stylesheet and the CSP hash that allows exactly it: the page runs no script and loads nothing. */
const STYLES = Object.fromEntries(
  PAPERS.map((paper) => {
    const css = `${BASE} ${PAGE[paper]}`;
    return [paper, { css, hash: `'sha256-${createHash('sha256').update(css).digest('base64')}'` }];
  }),
) as Record<Paper, { css: string; hash: string }>;

export function receiptCsp(paper: Paper): string {
  return (
    `default-src 'none'; style-src ${STYLES[paper].hash}; img-src 'none'; script-src 'none'; ` +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'self'"
  );
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/**
 * Text someone typed (a name, an address), escaped and isolated as `<bdi>` does in the console: a right-to-left
 * name or a stray bidi control inside cannot reorder the figures and labels around it.
 */
const typed = (text: string) => `<bdi>${escapeHtml(text)}</bdi>`;

/** The order's time as the office's wall clock shows it, with the zone's offset, e.g. "2026-01-15 15:45 GMT+05:45". */
export function officeTime(at: Date, timezone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')} ${part('timeZoneName')}`;
}

/**
 * An amount as a receipt prints it: every decimal of its currency, thousands grouped with a thin space (which no
 * locale reads as a decimal mark). A stored amount never has more decimals than its currency, so nothing rounds.
 */
export function receiptAmount(amount: string, decimals: number): string {
  const [whole, fraction] = new Dec(amount).toFixed(decimals).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** An offer's rate is currency2 per currency1 of the offer, which a reverse order has the other way round. */
function rateText(rate: string, source: string, dest: string, isReverse: boolean): string {
  const [from, to] = isReverse ? [dest, source] : [source, dest];
  return `1 ${escapeHtml(from)} = ${escapeHtml(normalize(rate))} ${escapeHtml(to)}`;
}

export function receiptHtml(data: ReceiptData, paper: Paper): string {
  const { office, order } = data;
  const row = (label: string, value: string) => `<tr><th>${label}</th><td>${value}</td></tr>`;
  const rows = [
    row('Client gives', `${receiptAmount(order.clientAmount, order.decimals1)} ${escapeHtml(order.currency1)}`),
    row('Office pays', `${receiptAmount(order.exchangeAmount, order.decimals2)} ${escapeHtml(order.currency2)}`),
    ...(order.rate === null
      ? []
      : [row('Rate', rateText(order.rate, order.currency1, order.currency2, order.isReverse))]),
    row('Date and time', escapeHtml(officeTime(order.createdAt, office.timezone))),
    row('Status', escapeHtml(order.status)),
    ...(data.client === null ? [] : [row('Client', typed(data.client))]),
    row('Cashier', data.cashier === null ? '—' : typed(data.cashier)),
  ];
  const address = [office.address, office.city].filter((s) => s.trim() !== '').map(typed);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt for order #${order.id}</title>
<style>${STYLES[paper].css}</style></head>
<body>
<h1>${typed(office.name)}</h1>
${address.length > 0 ? `<p>${address.join(', ')}</p>` : ''}
<p>Order #${order.id} · <span class="ref">${escapeHtml(order.hashedId)}</span></p>
<table>${rows.join('')}</table>
<p class="signature">Client's signature</p>
</body></html>
`;
}
