import { TextInput } from '@mantine/core';
import { type SignupBody, sessionResponseSchema, signupStatusSchema } from '@obd/contract';
import { MIN_PASSWORD_LENGTH } from '@obd/contract/constants';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSearchParams } from '../../app/navigation.tsx';
import { apiFetchParsed } from '../../lib/api.ts';
import { HOME_PATH } from '../../lib/session.ts';
import { AccountForm, useAccountFields } from './AccountForm.tsx';
import { useStartSession } from './session.ts';

/**
 * `/signup` (decisions §4): the first operator needs no invitation and becomes admin; after that the
 * server asks for an invitation code, and the field appears — filled in from an invitation link.
 */
export function SignupPage() {
  const startSession = useStartSession();
  // An invitation link (`/signup?code=…`, issue 11) fills the code in.
  const [searchParams] = useSearchParams();
  const { values, field } = useAccountFields({
    email: '',
    password: '',
    invitationCode: searchParams.get('code')?.trim() ?? '',
  });

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

  const submit = () => {
    const invitationCode = values.invitationCode.trim();
    signup.mutate({
      email: values.email,
      password: values.password,
      ...(invitationRequired && invitationCode ? { invitationCode } : {}),
    });
  };

  return (
    <AccountForm
      title="Signup"
      field={field}
      password={{
        autoComplete: 'new-password',
        description: `At least ${MIN_PASSWORD_LENGTH} characters`,
      }}
      request={signup}
      failure="Signup failed"
      onSubmit={submit}
      other={{ to: '/login', text: 'Already have an account? Login' }}
    >
      {invitationRequired && (
        <TextInput
          label="Invitation code"
          description="Ask an admin of OBD Admin for an invitation code."
          autoComplete="off"
          {...field('invitationCode')}
        />
      )}
    </AccountForm>
  );
}
