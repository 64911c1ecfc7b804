import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * Where the order page's "Back" goes. The board records, as it is left, which history entry it was left for: when
 * that is the order page now shown, one step back is the board exactly as the user left it (search, filters, tab,
 * page, scroll); otherwise (a link from Home, an address typed or reloaded) the link opens the board itself.
 */
interface Exit {
  from: string;
  fromIdx: number;
  toKey: string;
  toIdx: number;
}

let exit: Exit | null = null;

type RouterState = { key?: string; idx?: number } | null;
const current = (): RouterState => (typeof window === 'undefined' ? null : (window.history.state as RouterState));

/** Called by the board when it is left (the browser's history already shows where to): remembers the way back. */
export function boardLeft(from: string, fromIdx: number | undefined): void {
  const to = current();
  exit =
    to?.key && typeof to.idx === 'number' && typeof fromIdx === 'number'
      ? { from, fromIdx, toKey: to.key, toIdx: to.idx }
      : null;
}

/** The board's history index while it is shown. */
export function historyIndex(): number | undefined {
  const idx = current()?.idx;
  return typeof idx === 'number' ? idx : undefined;
}

/** For the page at `key`: the board it was opened from (then history back returns to it), or null. */
export function boardBehind(key: string): string | null {
  return exit && exit.toKey === key && exit.toIdx === exit.fromIdx + 1 ? exit.from : null;
}

/** Remembers, as the board is left, the way back to it as it is now. */
export function useBackToHere(): void {
  const location = useLocation();
  const here = useRef({ href: '', idx: undefined as number | undefined });
  useEffect(() => {
    here.current = { href: `${location.pathname}${location.search}`, idx: historyIndex() };
  }, [location]);
  useEffect(() => () => boardLeft(here.current.href, here.current.idx), []);
}
