import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { fakeFetch, resetNetwork } from './network';

/**
 * What jsdom lacks of a browser, and the network. Installed before any module of the console loads: its API
 * client takes `fetch` and `Request` when it is created.
 */

// A browser resolves the client's relative URLs ("/api/v1/…") against the page; Node's Request takes only absolute ones.
const NodeRequest = globalThis.Request;
globalThis.Request = class extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
  }
} as typeof Request;
globalThis.fetch = fakeFetch;

// Widths answered for jsdom's window (1024 × 768): the console's desktop layout.
window.matchMedia = (query: string) => {
  const min = /min-width:\s*([\d.]+)(em|px)/.exec(query);
  const max = /max-width:\s*([\d.]+)(em|px)/.exec(query);
  const px = (m: RegExpExecArray) => Number(m[1]) * (m[2] === 'em' ? 16 : 1);
  // This browser asks for reduced motion, which the theme respects: dropdowns and dialogs open at once, with no
  // transition for jsdom to play out. Any other preference (a dark scheme) is answered no.
  const matches =
    /prefers-reduced-motion:\s*reduce/.test(query) ||
    (Boolean(min || max) && (!min || window.innerWidth >= px(min)) && (!max || window.innerWidth <= px(max)));
  return {
    matches,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  };
};
globalThis.ResizeObserver = class {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
};
Element.prototype.scrollIntoView = () => undefined;

// Finding by role walks the whole page each try: on a busy two-core machine one try of a form's page can take a second.
configure({ asyncUtilTimeout: 5000 });

beforeEach(() => {
  resetNetwork();
  sessionStorage.clear();
});
afterEach(() => cleanup());
