import { QueryClient } from '@tanstack/react-query';
import { ApiError, INVALID_RESPONSE } from '../lib/api.ts';

/**
 * Retry once after a network failure or a 5xx (a restart, a dropped connection), never after a 4xx
 * or a malformed answer: asking again gets the same answer, and the operator waits for nothing.
 */
export function shouldRetry(failureCount: number, error: Error): boolean {
  if (error instanceof ApiError) {
    if (error.code === INVALID_RESPONSE) return false;
    if (error.status >= 400 && error.status < 500) return false;
  }
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // Reference data changes rarely; refetching on every tab switch would flash the spinner.
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
