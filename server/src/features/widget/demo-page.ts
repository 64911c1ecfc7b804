/** A public key's shape; anything else in ?key= is ignored rather than written into the page. */
export const PUBLIC_KEY_SHAPE = /^pk_[A-Za-z0-9]{32}$/;

/**
 * The demo page's icon, served beside it: a page that names none makes the browser ask for /favicon.ico, which this
 * service does not have (a 404 in every visitor's console and log).
 */
export const DEMO_ICON_PATH = '/widget/demo-icon.svg';
export const DEMO_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b7a53"/>' +
  '<text x="16" y="22" font-family="system-ui,sans-serif" font-size="14" font-weight="700" text-anchor="middle" fill="#fff">PX</text></svg>';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The demo: the widget as a partner embeds it, with the demo branch's public key when this process seeded the
 * demo, else the one given in ?key= (printed at first start), else a form that asks for it.
 */
export function demoPage(input: { key?: string; exchangeId?: number; lang: string }): string {
  const widget = input.key
    ? `<script src="/widget/v1/widget.js" data-key="${escape(input.key)}"${input.exchangeId ? ` data-exchange-id="${input.exchangeId}"` : ''} async></script>`
    : `<form method="get" action="/widget/demo">
  <p>This server did not seed the demo in this process, so it does not know the demo's public key (keys are stored hashed).
  Paste the <code>public</code> key printed at first start:</p>
  <label>Public key <input name="key" required pattern="pk_[A-Za-z0-9]{32}" size="40"></label>
  <button type="submit">Show the widget</button>
</form>`;
  return `<!doctype html>
<html lang="${escape(input.lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rates widget: demo</title>
<link rel="icon" href="${DEMO_ICON_PATH}" type="image/svg+xml">
<style>
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; color: #1d2733; }
  pre { background: #f3f5f8; padding: .75rem; overflow-x: auto; }
  .themed { --pxs-accent: #0b7a53; --pxs-bg: #f6fbf8; --pxs-border: #b9d9c8; --pxs-radius: 4px; }
</style></head>
<body>
<h1>Rates widget</h1>
<p>An office's rates, opening hours and an estimate calculator, from one script tag. The figures come from the
Partner API as they are: the estimate is computed by the service, never in the page.</p>
<div class="themed">
${widget}
</div>
<h2>Embed it</h2>
<pre>&lt;script src="https://YOUR-SERVICE/widget/v1/widget.js"
        data-key="pk_…" data-exchange-id="1" async&gt;&lt;/script&gt;</pre>
<p>Options, theming and allowed origins: <code>docs/widget.md</code>.</p>
</body></html>
`;
}
