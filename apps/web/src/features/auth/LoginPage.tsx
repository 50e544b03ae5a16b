import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type LoginBody, sessionResponseSchema } from '@obd/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { apiFetchParsed } from '../../lib/api.ts';
import { nextPathAfterSignIn } from '../../lib/session.ts';
import { AuthLayout, failureText } from './AuthLayout.tsx';
import { useStartSession } from './session.ts';

/** `/` and `/login` (spec §2.3): on success, back to the page in `next`, else the Users Table. */
export function LoginPage() {
  const [searchParams] = useSearchParams();
  const startSession = useStartSession();
  const [credentials, setCredentials] = useState<LoginBody>({ email: '', password: '' });

  const login = useMutation({
    mutationFn: (body: LoginBody) =>
      apiFetchParsed(sessionResponseSchema, '/api/login', { method: 'POST', body, auth: false }),
    onSuccess: (session) => startSession(session, nextPathAfterSignIn(searchParams.get('next'))),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    login.mutate(credentials);
  };

  return (
    <AuthLayout title="Login">
      <form onSubmit={submit} aria-label="Login">
        <Stack gap="md">
          <TextInput
            type="email"
            label="Email"
            name="email"
            autoComplete="username"
            value={credentials.email}
            onChange={(event) => setCredentials({ ...credentials, email: event.currentTarget.value })}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="current-password"
            value={credentials.password}
            onChange={(event) => setCredentials({ ...credentials, password: event.currentTarget.value })}
          />
          {login.isError && (
            <Alert color="red" variant="light" role="alert">
              {failureText(login.error, 'Login failed')}
            </Alert>
          )}
          <Button type="submit" fullWidth disabled={login.isPending}>
            Login
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/signup">
              Don't have an account? Signup
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
