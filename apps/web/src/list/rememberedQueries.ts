import { useSyncExternalStore } from 'react';

/**
 * Each list screen's last query (its address-bar search) for this browser session, so the sidebar
 * link brings the operator back to the page and filters they left (decisions §5). A store with
 * subscribers, so the sidebar links update as soon as a list changes its query.
 */

const KEY_PREFIX = 'obd-admin:list-query:';
const listeners = new Set<() => void>();

/** Remembers `search` (without `?`; empty for a fresh list) as the last query of the screen at `path`. */
export function rememberListQuery(path: string, search: string): void {
  if (rememberedListQuery(path) === search) return;
  try {
    if (search) sessionStorage.setItem(KEY_PREFIX + path, search);
    else sessionStorage.removeItem(KEY_PREFIX + path);
  } catch {
    // Storage full or disabled (private mode): the screen still works, the link just starts fresh.
    return;
  }
  for (const listener of listeners) listener();
}

/** The remembered search of the screen at `path`, `''` if none. */
export function rememberedListQuery(path: string): string {
  try {
    return sessionStorage.getItem(KEY_PREFIX + path) ?? '';
  } catch {
    return '';
  }
}

/** Forgets every screen's query, so the next operator in this tab starts fresh (logout). */
export function forgetListQueries(): void {
  try {
    for (const key of Object.keys(sessionStorage)) {
      if (key.startsWith(KEY_PREFIX)) sessionStorage.removeItem(key);
    }
  } catch {
    return;
  }
  for (const listener of listeners) listener();
}

/** The address to open the screen at `path` with its remembered query. */
export function useRememberedListHref(path: string): string {
  const search = useSyncExternalStore(subscribe, () => rememberedListQuery(path));
  return search ? `${path}?${search}` : path;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
