import type { Operator } from '@obd/contract';
import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { AppProviders } from '../app/AppProviders.tsx';
import { createQueryClient } from '../app/queryClient.ts';
import { meQueryOptions } from '../features/auth/session.ts';
import { makeSuggestions } from '../features/shared/suggestions.ts';
import { queryKeys } from '../list/declaration.ts';

/**
 * Renders `routes` at `url` with the app's real providers; the router shows where the app navigated.
 * The make suggestions are already known, as once any screen has asked for them, so that a test
 * sees only its own screen's requests; so is `operator`, the one signed in, when given (as after
 * sign-in, whose answer says who it is).
 */
export function renderRoutes(routes: RouteObject[], url: string, options: { operator?: Operator } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.suggestions(makeSuggestions.key), ['Honda', 'Toyota']);
  if (options.operator) queryClient.setQueryData(meQueryOptions.queryKey, options.operator);
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, queryClient, ...view };
}
