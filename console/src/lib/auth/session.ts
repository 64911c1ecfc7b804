import createClient from 'openapi-fetch';
import { useSyncExternalStore } from 'react';
import type { paths } from '@pxs/sdk';

/**
 * The staff access token of this browser tab. sessionStorage, not localStorage: a shared counter computer
 * forgets the session with the tab, and the token never reaches a URL or a cookie.
 */
const KEY = 'pxs.token';
const listeners = new Set<() => void>();
let expiredNotice = false;
let loggedOut = false;

/**
 * Not the shared client (api/client.ts): its 401 handling would turn a refused log out into "Session ended", and
 * it reads the token this tab has just forgotten.
 */
const server = createClient<paths>({ baseUrl: '' });

function notify() {
  for (const l of listeners) l();
}

export const session = {
  token: (): string | null => sessionStorage.getItem(KEY),
  start(token: string) {
    sessionStorage.setItem(KEY, token);
    expiredNotice = false;
    loggedOut = false;
    notify();
  },
  /**
   * Log out: the next login, perhaps someone else's, starts at Home rather than on this user's last page. The
   * server voids every token of the user (log out everywhere); the tab forgets its token whatever it answers.
   */
  end() {
    const token = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    loggedOut = true;
    notify();
    if (token)
      server
        .POST('/api/v1/auth/logout', { headers: { Authorization: `Bearer ${token}` }, keepalive: true })
        .catch(() => undefined);
  },
  /** The API refused the token (expired, user deactivated): back to the login page, which says why. */
  expire() {
    if (!sessionStorage.getItem(KEY)) return;
    expiredNotice = true;
    sessionStorage.removeItem(KEY);
    notify();
  },
  wasExpired: () => expiredNotice,
  loggedOut: () => loggedOut,
  subscribe: (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useToken(): string | null {
  return useSyncExternalStore(session.subscribe, session.token);
}
