import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { isValidElement, type ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_PATH } from '../features/account/AccountScreen.tsx';
import { AUDIT_PATHS } from '../features/audit/declarations.tsx';
import { OPERATIONS_PATHS } from '../features/operations/declarations.tsx';
import { OPERATORS_SCREEN_PATH } from '../features/operators/declarations.tsx';
import { IMPORT_HISTORY_PATHS } from '../features/uploads/importHistory.tsx';
import { clearToken, setToken } from '../lib/session.ts';
import { deferred, installFakeFetch, jsonResponse } from '../test/fakeFetch.ts';
import { renderRoutes } from '../test/renderRoutes.tsx';
import { AppProviders } from './AppProviders.tsx';
import { createQueryClient } from './queryClient.ts';
import {
  CHUNK_FAILED,
  isChunkLoadError,
  PageLoading,
  RouteErrorBoundary,
  SCREEN_FAILED,
} from './RouteStates.tsx';
import { appRoutes, screenRoute } from './router.tsx';
import { SCREENS, type ScreenRoute } from './screens.tsx';

/** The declaration a list or detail screen's element renders, through a role gate if any. */
function declarationOf(element: ReactElement): { title: string; listPath?: string } | undefined {
  const props = element.props as { declaration?: { title: string; listPath?: string }; children?: unknown };
  if (props.declaration) return props.declaration;
  return isValidElement(props.children) ? declarationOf(props.children) : undefined;
}

describe('the screens table', { timeout: 30_000 }, () => {
  it('loads every screen on demand: each load gives an element', async () => {
    for (const entry of SCREENS) {
      const element = await entry.load();
      expect(isValidElement(element), entry.path).toBe(true);
    }
  });

  it("writes the features' own paths (the table may not import them: it is in every page's download)", () => {
    const paths = SCREENS.map((entry) => entry.path);
    for (const path of [
      ...Object.values(OPERATIONS_PATHS),
      ...Object.values(AUDIT_PATHS),
      ...Object.values(IMPORT_HISTORY_PATHS),
      OPERATORS_SCREEN_PATH,
      ACCOUNT_PATH,
    ]) {
      expect(paths).toContain(path);
    }
    expect(new Set(paths).size).toBe(paths.length);
  });

  it("labels a detail screen with its declaration's title and highlights the declaration's list", async () => {
    for (const entry of SCREENS.filter((candidate) => candidate.sidebarParent)) {
      const declaration = declarationOf((await entry.load()) as ReactElement);
      expect(declaration?.title, entry.path).toBe(entry.label);
      expect(declaration?.listPath, entry.path).toBe(entry.sidebarParent);
    }
  });

  it("labels a list screen with its declaration's title unless the sidebar says otherwise (spec §2.2)", async () => {
    const sidebarNames: Record<string, string> = {
      '/UsersTable': 'User List',
      '/Api2': 'Automotive Diagnostic Commands',
      '/ObdScanReport': 'Scan Details',
    };
    for (const entry of SCREENS.filter((candidate) => !candidate.sidebarParent)) {
      const declaration = declarationOf((await entry.load()) as ReactElement);
      if (!declaration) continue;
      expect(declaration.title, entry.path).toBe(sidebarNames[entry.path] ?? entry.label);
    }
  });

  it('routes every screen through a lazy element inside an error boundary', () => {
    const first = SCREENS[0] as ScreenRoute;
    const route = screenRoute(first);
    expect(route.path).toBe(first.path);
    const element = route.element as ReactElement<{ children: ReactElement }>;
    expect(element.type).toBe(RouteErrorBoundary);
    expect((element.props.children.type as { $$typeof?: symbol }).$$typeof).toBe(Symbol.for('react.lazy'));
    // One element per screen: its code is asked for once, whichever route table draws it.
    expect(screenRoute(first).element).toBe(route.element);
  });
});

/** A router with one screen whose code fails to download, as after a deploy removed its chunk. */
function renderFailingScreen(error: Error) {
  const failing: ScreenRoute = { path: '/Broken', label: 'Broken', load: () => Promise.reject(error) };
  renderRoutes([{ children: [screenRoute(failing)] }], '/Broken');
}

describe('a screen whose code cannot be loaded', { timeout: 20_000 }, () => {
  it('says so in a sentence with a Reload button that reloads the page', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    renderFailingScreen(
      new TypeError('Failed to fetch dynamically imported module: /assets/ListScreen-abc.js'),
    );

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(CHUNK_FAILED);
    expect(alert.textContent).not.toContain('/assets/');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('a screen that throws says something went wrong, with its message', async () => {
    renderFailingScreen(new Error('Cannot read properties of undefined'));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(SCREEN_FAILED);
    expect(alert.textContent).toContain('Cannot read properties of undefined');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it("tells a chunk's failure by the browsers' messages", () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: x.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/x.css'))).toBe(true);
    expect(isChunkLoadError(new Error('Something else'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });
});

describe('the first load of a page', () => {
  it('shows nothing for a moment, then a spinner with its text', () => {
    vi.useFakeTimers();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <PageLoading delayMs={400} />
      </AppProviders>,
    );
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(399));
    expect(screen.queryByRole('status')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).toContain('Loading...');
  });
});

const FAULT_CODES_PATH = '/api/faultCodesList';

describe("a list's first request", { timeout: 20_000 }, () => {
  it('leaves from the route while the screen downloads, and the screen uses it: one request', async () => {
    setToken('a-token');
    const held = deferred<Response>();
    const calls = installFakeFetch((call) => {
      if (call.url.pathname === '/api/me')
        return jsonResponse({ id: 1, email: 'a@example.com', role: 'admin' });
      if (call.url.pathname === FAULT_CODES_PATH) return held.promise;
      return jsonResponse({ data: [], total: 0 });
    });
    const queryClient = createQueryClient();
    renderRoutes(appRoutes(queryClient), '/FaultCodeList?page=2', { queryClient });
    const listCalls = () => calls.filter((call) => call.url.pathname === FAULT_CODES_PATH);
    // Asked by the route, before the layout has drawn (which asks who is signed in).
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(calls[0]?.url.pathname).toBe(FAULT_CODES_PATH);
    expect(listCalls()[0]?.params.page).toBe('2');
    held.resolve(jsonResponse({ data: [], total: 0 }));
    await screen.findByRole('heading', { name: 'Fault Code List' });
    await screen.findByText(/no fault codes/i);
    expect(listCalls()).toHaveLength(1);
    clearToken();
  });
});
