import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { session, useToken } from './session';

/**
 * Pages behind a login: without a token (or once the API refused it), back to the login page, then back here;
 * after a log out, to Home.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const token = useToken();
  const location = useLocation();
  if (!token)
    return (
      <Navigate
        to="/login"
        replace
        state={session.loggedOut() ? null : { from: location.pathname + location.search }}
      />
    );
  return children;
}
