import '@mantine/core/styles.css';
import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { meQueryOptions } from '../features/auth/session.ts';
import { setForbiddenHandler } from '../lib/api.ts';
import { colorSchemeManager } from './colorScheme.ts';
import { cssVariablesResolver, theme } from './theme.ts';

/** Mantine and TanStack Query around the app (and around screens under test). */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  // A 403: the role may have been lowered by an admin; asking who is signed in again lets the
  // sidebar and the role-gated screens say so instead of showing a failed request.
  useEffect(() => {
    setForbiddenHandler(() => void queryClient.invalidateQueries({ queryKey: meQueryOptions.queryKey }));
    return () => setForbiddenHandler(() => {});
  }, [queryClient]);
  return (
    // The operating system's colour scheme unless the operator picked one in this browser (the toggle).
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
