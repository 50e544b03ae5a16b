import type { Operator } from '@obd/contract';
import type { QueryClient } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { Suspense } from 'react';
import { AppProviders } from '../app/AppProviders.tsx';
import {
  type Location,
  memoryHistory,
  type NavigateOptions,
  type NavigationType,
  type RouteObject,
  Router,
  useRoutes,
} from '../app/navigation.tsx';
import { createQueryClient } from '../app/queryClient.ts';
import { meQueryOptions } from '../features/auth/session.ts';
import { makeSuggestions } from '../features/shared/suggestions.ts';
import { queryKeys } from '../list/declaration.ts';

/** Where the app under test is, and a way to go elsewhere, as a test reads them. */
export interface TestRouter {
  /** The address and how it was reached: the history's, at once (the page may draw it a moment later). */
  readonly state: { location: Location; historyAction: NavigationType };
  /** Goes to `to` as the app's links do, and waits for React to draw it. */
  navigate: (to: string, options?: NavigateOptions) => Promise<void>;
}

/**
 * Renders `routes` at `url` with the app's real providers, with a history in memory (the browser's
 * address is left alone); `router` says where the app navigated. The make suggestions are already
 * known, as once any screen has asked for them, so that a test sees only its own screen's requests;
 * so is `operator`, the one signed in, when given (as after sign-in, whose answer says who it is).
 * `queryClient`: the app's, when the routes were made with it (router.tsx `appRoutes`).
 */
export function renderRoutes(
  routes: RouteObject[],
  url: string,
  options: { operator?: Operator; queryClient?: QueryClient } = {},
) {
  const queryClient = options.queryClient ?? createQueryClient();
  queryClient.setQueryData(queryKeys.suggestions(makeSuggestions.key), ['Honda', 'Toyota']);
  if (options.operator) queryClient.setQueryData(meQueryOptions.queryKey, options.operator);
  const history = memoryHistory(url);
  const router: TestRouter = {
    get state() {
      const { location, action } = history.place();
      return { location, historyAction: action };
    },
    navigate: async (to, navigateOptions) => {
      await act(async () => history.go(to, navigateOptions));
    },
  };
  const view = render(
    <AppProviders queryClient={queryClient}>
      <Router history={history}>
        <Suspense fallback={null}>
          <Routes routes={routes} />
        </Suspense>
      </Router>
    </AppProviders>,
  );
  return { router, queryClient, ...view };
}

function Routes({ routes }: { routes: RouteObject[] }) {
  return useRoutes(routes);
}
