import { Center } from '@mantine/core';
import { LoginForm } from '../../features/auth';

export function LoginPage() {
  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <LoginForm />
    </Center>
  );
}
