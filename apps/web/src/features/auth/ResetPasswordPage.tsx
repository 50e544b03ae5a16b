import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import type { PasswordResetBody } from '@obd/contract';
import { MIN_PASSWORD_LENGTH, PASSWORD_RESET_PATH } from '@obd/contract/constants';
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from '../../app/navigation.tsx';
import { apiFetch } from '../../lib/api.ts';
import { useAccountFields } from './AccountForm.tsx';
import { AuthLayout, failureText } from './AuthLayout.tsx';

export { RESET_PASSWORD_PATH } from './paths.ts';
/** What the login page says after a reset. */
export const PASSWORD_RESET_DONE = 'Your password is changed. Sign in with the new one.';

/**
 * `/reset-password` (public, issue 11): the e-mail, the one-time code an admin issued, and a new
 * password. Every session of the account ends; the operator signs in again with the new password.
 */
export function ResetPasswordPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const { values, field } = useAccountFields<PasswordResetBody>({
    email: searchParams.get('email') ?? '',
    code: searchParams.get('code') ?? '',
    password: '',
  });
  const reset = useMutation({
    mutationFn: (body: PasswordResetBody) =>
      apiFetch(PASSWORD_RESET_PATH, { method: 'POST', body, auth: false }),
    onSuccess: () => navigate('/login', { replace: true, state: { notice: PASSWORD_RESET_DONE } }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate({ email: values.email.trim(), code: values.code.trim(), password: values.password });
  };

  return (
    <AuthLayout title="Reset password">
      <form onSubmit={submit} aria-label="Reset password">
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            An admin gives you a one-time reset code. It works for 24 hours.
          </Text>
          <TextInput type="email" label="Email" autoComplete="username" {...field('email')} />
          <TextInput label="Reset code" autoComplete="one-time-code" {...field('code')} />
          <PasswordInput
            label="New password"
            autoComplete="new-password"
            description={`At least ${MIN_PASSWORD_LENGTH} characters`}
            {...field('password')}
          />
          {reset.isError && (
            <Alert color="red" variant="light" role="alert">
              {failureText(reset.error, 'Password reset failed')}
            </Alert>
          )}
          <Button type="submit" fullWidth disabled={reset.isPending}>
            Reset password
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login">
              Back to Login
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthLayout>
  );
}
