import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type ChangeEvent, type FormEvent, type ReactNode, useState } from 'react';
import { Link } from '../../app/navigation.tsx';
import { AuthLayout, failureText } from './AuthLayout.tsx';

/** What binds an input to one field of the form: its name, value and change handler. */
export interface FieldBinding {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** The text fields of an account form and `field(name)`, the props of the input showing one. */
export function useAccountFields<Fields extends Record<string, string>>(initial: Fields) {
  const [values, setValues] = useState(initial);
  const field = (name: keyof Fields & string): FieldBinding => ({
    name,
    value: values[name] ?? '',
    onChange: (event) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });
  return { values, field };
}

interface AccountFormProps {
  /** 'Login' or 'Signup': the card's title, the form's name and the button's text. */
  title: string;
  field: (name: 'email' | 'password') => FieldBinding;
  /** The password the browser should offer: the saved one, or a new one (with a hint). */
  password: { autoComplete: 'current-password' | 'new-password'; description?: string };
  /** The screen's own fields, after the password (the invitation code). */
  children?: ReactNode;
  /** The request the form sends: its failure is shown, and the button waits while it runs. */
  request: { isError: boolean; error: unknown; isPending: boolean };
  /** The failure shown when the server sent no sentence of its own (spec §2.3). */
  failure: string;
  onSubmit: () => void;
  /** The link to the other screen of the pair. */
  other: { to: string; text: string };
  /** Another way on, under the first link (login: the password reset page). */
  alsoLink?: { to: string; text: string };
  /** A sentence from the screen the operator came from (e.g. 'Your password is changed.'). */
  notice?: string;
}

/** The login and sign-up form: email, password, the screen's own fields, failure, button, link. */
export function AccountForm({
  title,
  field,
  password,
  children,
  request,
  failure,
  onSubmit,
  other,
  alsoLink,
  notice,
}: AccountFormProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <AuthLayout title={title}>
      <form onSubmit={submit} aria-label={title}>
        <Stack gap="md">
          {notice && (
            <Alert color="blue" variant="light" role="status">
              {notice}
            </Alert>
          )}
          <TextInput type="email" label="Email" autoComplete="username" {...field('email')} />
          <PasswordInput label="Password" {...password} {...field('password')} />
          {children}
          {request.isError && (
            <Alert color="red" variant="light" role="alert">
              {failureText(request.error, failure)}
            </Alert>
          )}
          <Button type="submit" fullWidth disabled={request.isPending}>
            {title}
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to={other.to}>
              {other.text}
            </Anchor>
          </Text>
          {alsoLink && (
            <Text size="sm" ta="center">
              <Anchor component={Link} to={alsoLink.to}>
                {alsoLink.text}
              </Anchor>
            </Text>
          )}
        </Stack>
      </form>
    </AuthLayout>
  );
}
