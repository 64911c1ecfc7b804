import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useToken } from './session';

/** Pages behind a login: without a token (or once the API refused it), back to the login page, then back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const token = useToken();
  const location = useLocation();
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return children;
}
