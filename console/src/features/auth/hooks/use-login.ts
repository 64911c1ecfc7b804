import { useMutation, useQueryClient } from '@tanstack/react-query';
import { session } from '../../../lib/auth/session';
import { logIn, type Credentials } from '../api/login';

/** Email and password for an access token; the cache of whoever was logged in before goes. */
export function useLogin({ onError, onLoggedIn }: { onError: (err: unknown) => void; onLoggedIn: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (values: Credentials) => logIn(values),
    meta: { fieldErrors: true },
    onSuccess: (token) => {
      queryClient.clear();
      session.start(token.accessToken);
      onLoggedIn();
    },
    onError,
  });
}
