import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import {
  MIN_PASSWORD_LENGTH,
  type SignupBody,
  sessionResponseSchema,
  signupStatusSchema,
} from '@obd/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { apiFetchParsed } from '../../lib/api.ts';
import { HOME_PATH } from '../../lib/session.ts';
import { AuthLayout, failureText } from './AuthLayout.tsx';
import { useStartSession } from './session.ts';

/**
 * `/signup` (decisions §4): the first operator needs no invitation and becomes admin; after that the
 * server asks for an invitation code, and the field appears.
 */
export function SignupPage() {
  const startSession = useStartSession();
  const [form, setForm] = useState({ email: '', password: '', invitationCode: '' });

  const signupStatus = useQuery({
    queryKey: ['signup-status'],
    queryFn: ({ signal }) => apiFetchParsed(signupStatusSchema, '/api/signup', { signal, auth: false }),
  });
  const invitationRequired = signupStatus.data?.invitationRequired === true;

  const signup = useMutation({
    mutationFn: (body: SignupBody) =>
      apiFetchParsed(sessionResponseSchema, '/api/signup', { method: 'POST', body, auth: false }),
    onSuccess: (session) => startSession(session, HOME_PATH),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invitationCode = form.invitationCode.trim();
    signup.mutate({
      email: form.email,
      password: form.password,
      ...(invitationRequired && invitationCode ? { invitationCode } : {}),
    });
  };

  return (
    <AuthLayout title="Signup">
      <form onSubmit={submit} aria-label="Signup">
        <Stack gap="md">
          <TextInput
            type="email"
            label="Email"
            name="email"
            autoComplete="username"
            value={form.email}
            onChange={(event) => setForm({ ...form, email: event.currentTarget.value })}
          />
          <PasswordInput
            label="Password"
            name="password"
            autoComplete="new-password"
            description={`At least ${MIN_PASSWORD_LENGTH} characters`}
            value={form.password}
            onChange={(event) => setForm({ ...form, password: event.currentTarget.value })}
          />
          {invitationRequired && (
            <TextInput
              label="Invitation code"
              name="invitationCode"
              description="Ask an admin of OBD Admin for an invitation code."
              autoComplete="off"
              value={form.invitationCode}
              onChange={(event) => setForm({ ...form, invitationCode: event.currentTarget.value })}
            />
          )}
          {signup.isError && (
            <Alert color="red" variant="light" role="alert">
              {failureText(signup.error, 'Signup failed')}
            </Alert>
          )}
          <Button type="submit" fullWidth disabled={signup.isPending}>
            Signup
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login">
              Already have an account? Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
