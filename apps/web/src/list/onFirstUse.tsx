import { type ComponentType, type ReactElement, useRef, useState } from 'react';

/**
 * A part of a list screen fetched the first time it is used — a menu, a popover, a dialog, with
 * the floating-ui and focus-trap code behind them (issue 14: a list page's first download holds
 * what draws the list, not what its menus need once opened). One download per part and page
 * load, shared by every list that shows it.
 */
export interface LazyPart<P> {
  /** Starts the download, or joins the one under way; a failed one may be tried again. */
  load: () => Promise<ComponentType<P>>;
  /** The component, once downloaded. */
  loaded: () => ComponentType<P> | undefined;
}

export function lazyPart<P>(importer: () => Promise<ComponentType<P>>): LazyPart<P> {
  let component: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  return {
    load: () => {
      pending ??= importer().then(
        (loaded) => {
          component = loaded;
          return loaded;
        },
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    loaded: () => component,
  };
}

/** What the stand-in control does: a click opens the part; pointer over or focus fetch it ahead. */
export interface FirstUse {
  onClick: () => void;
  onPointerEnter: () => void;
  onFocus: () => void;
}

/**
 * Draws `placeholder` — the control exactly as it looks closed (the same button, label and size,
 * so nothing moves when the part arrives) — until the part is downloaded, then `render(Part,
 * openAtOnce)`: `openAtOnce` when the operator clicked the stand-in, so the menu opens as if the
 * code had always been there.
 */
export function OnFirstUse<P>({
  part,
  placeholder,
  render,
}: {
  part: LazyPart<P>;
  placeholder: (use: FirstUse) => ReactElement;
  render: (Part: ComponentType<P>, openAtOnce: boolean) => ReactElement;
}) {
  const [Part, setPart] = useState<ComponentType<P> | undefined>(() => part.loaded());
  const [openAtOnce, setOpenAtOnce] = useState(false);
  // Read when the download ends: a click during a download started by hovering still opens it.
  const clicked = useRef(false);
  const fetch = () => {
    part
      .load()
      .then((loaded) => {
        setOpenAtOnce(clicked.current);
        setPart(() => loaded);
      })
      .catch((error: unknown) => console.error('A part of the list could not be loaded', error));
  };
  if (Part) return render(Part, openAtOnce);
  return placeholder({
    onClick: () => {
      clicked.current = true;
      fetch();
    },
    onPointerEnter: fetch,
    onFocus: fetch,
  });
}
