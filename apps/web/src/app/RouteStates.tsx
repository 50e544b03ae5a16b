import { Alert, Button, Container, Group, Loader, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode, useEffect, useState } from 'react';
import { type Location, useLocation } from './navigation.tsx';

/**
 * What an import() of a chunk throws when the file cannot be fetched: after a deploy the old
 * hashed files are gone from the server (or the connection dropped). Chromium says 'Failed to fetch
 * dynamically imported module', Firefox 'error loading dynamically imported module', Safari
 * 'Importing a module script failed'; Vite's preloading says 'Unable to preload CSS'.
 */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|importing a module script failed|unable to preload/i.test(
    error.message,
  );
}

export const CHUNK_FAILED =
  'This screen could not be loaded: the app may have been updated since this page was opened, or the connection dropped. Reload the page to get the current version.';
export const SCREEN_FAILED = 'Something went wrong on this screen. Reloading the page may help.';

/**
 * What a route's error boundary shows: a screen whose code could not be downloaded, or that failed
 * while rendering, says so in a sentence with a Reload button instead of leaving the page blank.
 * Inside the layout it takes the screen's place and the sidebar stays usable.
 */
export function RouteError({ error }: { error: unknown }) {
  const chunk = isChunkLoadError(error);
  const detail = error instanceof Error && !chunk ? error.message : undefined;
  return (
    <Container size="sm" py="md" px={0} mx={0}>
      <Alert color="red" variant="light" role="alert" title={chunk ? 'Could not load this screen' : 'Error'}>
        <Text size="sm">{chunk ? CHUNK_FAILED : SCREEN_FAILED}</Text>
        {detail && (
          <Text size="xs" c="dimmed" mt={4}>
            {detail}
          </Text>
        )}
        <Group mt="sm">
          <Button size="xs" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Group>
      </Alert>
    </Container>
  );
}

/**
 * Shown on the first load of the page while a screen's code downloads. Nothing for the first
 * 400 ms — usually the screen is there by then, and a spinner that flashes for a moment reads as
 * a glitch — then a spinner with its text.
 */
export function PageLoading({ delayMs = 400 }: { delayMs?: number }) {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setVisible(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  if (!visible) return null;
  return (
    <Group role="status" justify="center" gap="sm" py="xl">
      <Loader size="sm" />
      <Text c="dimmed">Loading...</Text>
    </Group>
  );
}

/**
 * A route's error boundary (router.tsx): what throws below it — a screen, or its `React.lazy` whose
 * chunk could not be fetched — shows `RouteError` in its place. The next navigation tries again.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <ErrorCatcher location={useLocation()}>{children}</ErrorCatcher>;
}

type CatcherProps = { location: Location; children: ReactNode };
type CatcherState = { location: Location; error?: { thrown: unknown } };

class ErrorCatcher extends Component<CatcherProps, CatcherState> {
  constructor(props: CatcherProps) {
    super(props);
    this.state = { location: props.location };
  }

  static getDerivedStateFromError(thrown: unknown): Partial<CatcherState> {
    return { error: { thrown } };
  }

  // A new address clears the error: the operator has gone elsewhere (the sidebar stays usable).
  static getDerivedStateFromProps(props: CatcherProps, state: CatcherState): Partial<CatcherState> | null {
    return props.location === state.location ? null : { location: props.location, error: undefined };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A screen failed', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <RouteError error={this.state.error.thrown} /> : this.props.children;
  }
}
