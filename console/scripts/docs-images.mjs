// `npm run docs:images`: the documentation's screenshots, taken on purpose. The e2e scenarios that take them have
// just run (package.json) and left them in e2e-artifacts/screenshots, which git ignores; this copies the ones the
// README and docs/ show into docs/images. `npm test` never writes into the repository.
import { copyFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SHOTS = fileURLToPath(new URL('../e2e-artifacts/screenshots/', import.meta.url));
const IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url));
/**
 * docs/images/<name>.png: README.md (the first three, the Cash page, the back office's counter order, receipt and
 * reports), docs/widget.md (the widget), docs/reports.md, docs/console.md and docs/rates.md (rate sources, an offer's
 * rate chart).
 */
const NAMES = [
  'orders-board',
  'order-detail',
  'webhook-delivery',
  'cash',
  'widget',
  'counter-order',
  'receipt',
  'reports',
  'reports-phone',
  'rate-sources',
  'offer-rate-chart',
];

const missing = NAMES.filter((name) => !existsSync(`${SHOTS}${name}.png`));
if (missing.length > 0) {
  console.error(`No screenshot of ${missing.join(', ')} in ${SHOTS}: did the scenarios fail?`);
  process.exit(1);
}
for (const name of NAMES) copyFileSync(`${SHOTS}${name}.png`, `${IMAGES}${name}.png`);
console.log(`docs/images: ${NAMES.map((n) => `${n}.png`).join(', ')}`);
