import { Alert, Button, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../lib/api/errors';
import { session } from '../../../lib/auth/session';
import { fieldErrorsTo } from '../../../lib/forms/use-save';
import { useLogin } from '../hooks/use-login';

/** Staff login: email and password for an access token, kept for this tab only. */
export function LoginForm() {
  const navigate = useNavigate();
  const location = useLocation();
  const form = useForm({ initialValues: { email: '', password: '' } });
  const login = useLogin({
    onError: fieldErrorsTo(form),
    onLoggedIn: () => {
      const from = (location.state as { from?: string } | null)?.from;
      void navigate(from && from !== '/login' ? from : '/', { replace: true });
    },
  });
  const refused = login.error instanceof ApiError && login.error.status === 401;

  return (
    <Paper withBorder shadow="sm" p="xl" w={380} maw="100%" component="main">
      <form onSubmit={form.onSubmit((values) => login.mutate(values))} aria-label="Log in">
        <Stack>
          <div>
            <Title order={1} size="h3">
              Staff console
            </Title>
            <Text c="dimmed" size="sm">
              Partner Exchange Service back office
            </Text>
          </div>
          {session.wasExpired() && !login.isPending && (
            <Alert color="yellow" title="Session ended">
              Your session expired or was ended. Log in again to continue.
            </Alert>
          )}
          {refused && (
            <Alert color="red" role="alert">
              The email or the password is not right.
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            required
            autoFocus
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
          <Button type="submit" loading={login.isPending}>
            Log in
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
