import type { LoginBody } from '@obd/contract';
import { useMutation } from '@tanstack/react-query';
import { useLocation, useSearchParams } from '../../app/navigation.tsx';
import { apiFetchParsedLater } from '../../lib/api.ts';
import { nextPathAfterSignIn } from '../../lib/session.ts';
import { AccountForm, useAccountFields } from './AccountForm.tsx';
import { RESET_PASSWORD_PATH } from './paths.ts';
import { useStartSession } from './session.ts';

/** `/` and `/login` (spec §2.3): on success, back to the page in `next`, else the Users Table. */
export function LoginPage() {
  const [searchParams] = useSearchParams();
  // A sentence handed over by the page that sent the operator here (the password reset).
  const { state } = useLocation();
  const notice = typeof state?.notice === 'string' ? state.notice : undefined;
  const startSession = useStartSession();
  const { values, field } = useAccountFields<LoginBody>({ email: '', password: '' });

  const login = useMutation({
    mutationFn: (body: LoginBody) =>
      apiFetchParsedLater(async () => (await import('./schemas.ts')).sessionResponseSchema, '/api/login', {
        method: 'POST',
        body,
        auth: false,
      }),
    onSuccess: (session) => startSession(session, nextPathAfterSignIn(searchParams.get('next'))),
  });

  return (
    <AccountForm
      title="Login"
      field={field}
      password={{ autoComplete: 'current-password' }}
      request={login}
      failure="Login failed"
      onSubmit={() => login.mutate(values)}
      other={{ to: '/signup', text: "Don't have an account? Signup" }}
      alsoLink={{ to: RESET_PASSWORD_PATH, text: 'Have a reset code? Reset your password' }}
      notice={notice}
    />
  );
}
