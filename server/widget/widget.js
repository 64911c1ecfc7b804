/*! Partner Exchange Service rates widget v1. docs/widget.md. No framework, no float arithmetic on money. */
(() => {
  'use strict';
  const script = document.currentScript;
  if (!script) return;
  const data = script.dataset;
  const key = data.key || '';
  const api = (data.api || `${new URL(script.src).origin}/api/v1`).replace(/\/+$/, '');
  const locale = pickLocale(data.locale || document.documentElement.lang || navigator.language);
  const nf = new Intl.NumberFormat(locale);
  const sep = (n, type) => (nf.formatToParts(n).find((p) => p.type === type) || {}).value;
  const DECIMAL = sep(1.5, 'decimal') || '.';
  const GROUP = sep(12345678, 'group') || ',';
  const MONEY = new Set(['rate', 'minAmount', 'maxAmount', 'sourceAmount', 'destAmount']);

  const host = document.createElement('div');
  host.className = 'pxs-widget';
  host.dataset.state = 'loading';
  const target = data.target ? document.querySelector(data.target) : null;
  if (target) target.appendChild(host);
  else script.before(host);
  const root = host.attachShadow({ mode: 'open' });
  const CSS = `:host{display:block;font:var(--pxs-font,14px/1.4 system-ui,sans-serif);color:var(--pxs-fg,#1d2733);
background:var(--pxs-bg,#fff);border:1px solid var(--pxs-border,#d6dce3);border-radius:var(--pxs-radius,10px);padding:16px;max-width:var(--pxs-width,420px)}
h2{font-size:1.15em;margin:0 0 2px}h3{font-size:.95em;margin:14px 0 6px}.muted{color:var(--pxs-muted,#5d6b7a);margin:0}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:3px 6px 3px 0;border-bottom:1px solid var(--pxs-border,#d6dce3);font-weight:normal}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
label{display:block;font-size:.85em;color:var(--pxs-muted,#5d6b7a);margin-top:8px}
input,select{box-sizing:border-box;width:100%;font:inherit;padding:6px 8px;border:1px solid var(--pxs-border,#d6dce3);border-radius:calc(var(--pxs-radius,10px)/2);background:var(--pxs-input-bg,#fff);color:inherit}
input:focus,select:focus{outline:2px solid var(--pxs-accent,#1c6fd1);outline-offset:1px}
.rate{margin-top:8px;color:var(--pxs-accent,#1c6fd1)}.error{color:var(--pxs-error,#b3261e);margin:8px 0 0}`;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    root.adoptedStyleSheets = [sheet];
  } catch {
    el(root, 'style').textContent = CSS;
  }

  /** A decimal string as the page's language writes it: its digits exactly, never through a float. */
  function fmt(value) {
    const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(String(value));
    if (!m) return String(value);
    return m[1] + nf.format(BigInt(m[2])) + (m[3] ? DECIMAL + m[3] : '');
  }
  /** What a visitor typed, in the page's language, as a JSON number literal; null when it is not an amount. */
  function parseAmount(text) {
    let s = text
      .replace(/[\s\u00a0\u202f']/g, '')
      .split(GROUP)
      .join('');
    if (DECIMAL !== '.') s = s.split(DECIMAL).join('.');
    const m = /^0*(\d*)(?:\.(\d+))?$/.exec(s);
    if (!m || (!m[1] && !m[2])) return null;
    return (m[1] || '0') + (m[2] ? `.${m[2]}` : '');
  }

  async function call(method, path, body) {
    let res;
    try {
      res = await fetch(api + path, {
        method,
        credentials: 'omit',
        headers: Object.assign({ Authorization: `Bearer ${key}` }, body ? { 'Content-Type': 'application/json' } : {}),
        body,
      });
    } catch {
      throw new Error('The exchange service cannot be reached from this page.');
    }
    const json = readJson(await res.text());
    if (!res.ok) throw new Error((json && json.message) || `The exchange service answered ${res.status}.`);
    return json;
  }

  /**
   * The API writes money as JSON numbers with exact digits: keep them as text (the parser's source text where the
   * browser gives it; else the shortest form of the number, the same digits up to 15 significant ones).
   */
  function readJson(text) {
    try {
      return JSON.parse(text, (k, v, ctx) =>
        MONEY.has(k) && typeof v === 'number' ? (ctx && ctx.source) || String(v) : v,
      );
    } catch {
      return null;
    }
  }

  function el(parent, tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    parent.appendChild(node);
    return node;
  }
  function fail(message) {
    host.dataset.state = 'error';
    root.querySelectorAll('section').forEach((s) => s.remove());
    el(el(root, 'section'), 'p', { class: 'error', role: 'alert' }, message);
  }

  async function start() {
    if (!/^pk_/.test(key)) return fail('This widget needs a public key (pk_…) in data-key.');
    const wanted = Number(data.exchangeId);
    const exchanges = await call('GET', '/partner/public/exchanges');
    const exchange = exchanges.find((e) => (wanted ? e.id === wanted : e.exchangeActive));
    if (!exchange)
      return fail(wanted ? `Exchange ${wanted} is not among this key's offices.` : 'This key has no open office.');
    const rates = await call('GET', `/partner/public/rates?exchangeId=${exchange.id}`);
    render(exchange, rates);
    host.dataset.state = 'ready';
  }

  function render(exchange, rates) {
    const s = el(root, 'section', { 'aria-label': `${exchange.name}: rates and opening hours` });
    el(s, 'h2', {}, exchange.name);
    el(s, 'p', { class: 'muted' }, exchange.contacts.address);
    el(s, 'h3', {}, 'Rates');
    const rows = el(el(s, 'table', { class: 'rates' }), 'tbody');
    for (const r of rates) {
      const tr = el(rows, 'tr', { 'data-offer-id': String(r.offerId) });
      el(tr, 'th', { scope: 'row' }, `${r.sourceCurrency.ticker} → ${r.destCurrency.ticker}`);
      el(tr, 'td', { class: 'num', 'data-rate': r.rate }, fmt(r.rate));
      el(tr, 'td', { class: 'num muted' }, `${fmt(r.minAmount)} – ${fmt(r.maxAmount)} ${r.sourceCurrency.ticker}`);
    }
    if (rates.length === 0) el(s, 'p', { class: 'muted' }, 'No rates at the moment.');
    el(s, 'h3', {}, 'Opening hours');
    const days = el(el(s, 'table', { class: 'hours' }), 'tbody');
    const dayName = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
    for (const d of exchange.schedule) {
      const tr = el(days, 'tr');
      // 2024-01-01 was a Monday: ISO day d is January d.
      el(tr, 'th', { scope: 'row' }, dayName.format(new Date(Date.UTC(2024, 0, d.dayOfWeek))));
      el(tr, 'td', { class: 'num' }, d.isClosed ? 'Closed' : `${d.openTime}–${d.closeTime}`);
    }
    if (rates.length > 0) calculator(s, exchange, rates);
  }

  function calculator(s, exchange, rates) {
    el(s, 'h3', {}, 'Estimate');
    const form = el(s, 'form', { class: 'estimate' });
    const id = (n) => `pxs-${n}`;
    el(form, 'label', { for: id('pair') }, 'Exchange');
    const pair = el(form, 'select', { id: id('pair') });
    rates.forEach((r, i) =>
      el(pair, 'option', { value: String(i) }, `${r.sourceCurrency.ticker} → ${r.destCurrency.ticker}`),
    );
    const give = el(form, 'label', { for: id('give') });
    const source = el(form, 'input', { id: id('give'), inputmode: 'decimal', autocomplete: 'off' });
    const get = el(form, 'label', { for: id('get') });
    const dest = el(form, 'input', { id: id('get'), inputmode: 'decimal', autocomplete: 'off' });
    const out = el(form, 'p', { class: 'rate', 'aria-live': 'polite' });
    const error = el(form, 'p', { class: 'error', role: 'alert' });
    let timer = 0;
    let asked = 0;
    const labels = () => {
      const r = rates[Number(pair.value)];
      give.textContent = `You give (${r.sourceCurrency.ticker})`;
      get.textContent = `You get (${r.destCurrency.ticker})`;
    };
    const estimate = async (direction) => {
      const r = rates[Number(pair.value)];
      const input = direction === 'source' ? source : dest;
      const other = direction === 'source' ? dest : source;
      const amount = parseAmount(input.value);
      error.textContent = '';
      if (amount === null) {
        other.value = '';
        out.textContent = '';
        if (input.value.trim()) error.textContent = 'Enter an amount, e.g. 100.';
        return;
      }
      const mine = ++asked;
      // The body is written as text so the amount keeps exactly the digits typed: the service does the arithmetic.
      const body = `{"exchangeId":${exchange.id},"sourceCurrencyId":${r.sourceCurrency.id},"destCurrencyId":${r.destCurrency.id},"amount":${amount},"direction":"${direction}"}`;
      try {
        const q = await call('POST', '/partner/public/estimate', body);
        if (mine !== asked) return;
        other.value = fmt(direction === 'source' ? q.destAmount : q.sourceAmount);
        other.dataset.amount = direction === 'source' ? q.destAmount : q.sourceAmount;
        out.textContent = `1 ${q.sourceCurrency.ticker} = ${fmt(q.rate)} ${q.destCurrency.ticker}`;
      } catch (e) {
        if (mine !== asked) return;
        other.value = '';
        out.textContent = '';
        error.textContent = e.message;
      }
    };
    const later = (direction) => {
      clearTimeout(timer);
      timer = setTimeout(() => estimate(direction), 300);
    };
    source.addEventListener('input', () => later('source'));
    dest.addEventListener('input', () => later('dest'));
    pair.addEventListener('change', () => {
      labels();
      if (source.value) later('source');
    });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      estimate(root.activeElement === dest ? 'dest' : 'source');
    });
    labels();
  }

  function pickLocale(tag) {
    try {
      return Intl.NumberFormat.supportedLocalesOf([tag])[0] || undefined;
    } catch {
      return undefined;
    }
  }

  start().catch((e) => fail(e.message));
})();
