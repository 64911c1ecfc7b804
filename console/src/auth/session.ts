import { useSyncExternalStore } from 'react';

/**
 * The staff access token of this browser tab. sessionStorage, not localStorage: a shared counter computer
 * forgets the session with the tab, and the token never reaches a URL or a cookie.
 */
const KEY = 'pxs.token';
const listeners = new Set<() => void>();
let expiredNotice = false;

function notify() {
  for (const l of listeners) l();
}

export const session = {
  token: (): string | null => sessionStorage.getItem(KEY),
  start(token: string) {
    sessionStorage.setItem(KEY, token);
    expiredNotice = false;
    notify();
  },
  end() {
    sessionStorage.removeItem(KEY);
    notify();
  },
  /** The API refused the token (expired, user deactivated): back to the login page, which says why. */
  expire() {
    if (!sessionStorage.getItem(KEY)) return;
    expiredNotice = true;
    sessionStorage.removeItem(KEY);
    notify();
  },
  wasExpired: () => expiredNotice,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useToken(): string | null {
  return useSyncExternalStore(session.subscribe, session.token);
}
