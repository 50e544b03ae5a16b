import { render } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { AppProviders } from '../app/AppProviders.tsx';
import { createQueryClient } from '../app/queryClient.ts';
import { makeSuggestions } from '../features/shared/suggestions.ts';
import { queryKeys } from '../list/declaration.ts';

/**
 * Renders `routes` at `url` with the app's real providers; the router shows where the app navigated.
 * The make suggestions are already known, as once any screen has asked for them, so that a test
 * sees only its own screen's requests.
 */
export function renderRoutes(routes: RouteObject[], url: string) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.suggestions(makeSuggestions.key), ['Honda', 'Toyota']);
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, ...view };
}
