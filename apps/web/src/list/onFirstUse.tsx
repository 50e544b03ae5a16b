import { type ComponentType, type ReactElement, useEffect, useRef, useState } from 'react';

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
 * so nothing moves when the part arrives) — until it is clicked, then `render(Part, true)` once the
 * part is downloaded, so the menu opens as if the code had always been there. A part already
 * downloaded on this page (another list used it) is drawn at once, closed: `render(Part, false)`.
 *
 * Pointer over and focus only fetch the code: the stand-in stays on screen until the click. Swapping
 * it for the part as soon as a hover's download ended could replace the button between the press
 * and the release of a click, and a click split across two elements is no click at all (the List
 * views journey lost its click that way on a loaded machine).
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
  const [drawn, setDrawn] = useState<{ Part: ComponentType<P>; openAtOnce: boolean } | undefined>(() => {
    const loaded = part.loaded();
    return loaded && { Part: loaded, openAtOnce: false };
  });
  const fetchAhead = () => {
    // A failed download ahead is tried again, and reported, by the click.
    part.load().catch(() => undefined);
  };
  if (drawn) return render(drawn.Part, drawn.openAtOnce);
  return placeholder({
    onClick: () => {
      part
        .load()
        .then((loaded) => setDrawn({ Part: loaded, openAtOnce: true }))
        .catch((error: unknown) => console.error('A part of the list could not be loaded', error));
    },
    onPointerEnter: fetchAhead,
    onFocus: fetchAhead,
  });
}

/** The element to focus when a dialog closes, if there is one then. */
export type ReturnFocusTo = () => HTMLElement | null | undefined;

/**
 * Mantine's Modal gives focus back to what had it when the dialog opened: for a dialog opened from
 * a menu's item, that item, gone once the menu closed, so the focus fell to the page body. The
 * returned `returnFocusOnClose(target)`, called as the dialog opens, names where it goes instead,
 * looked up when `opened` turns false (the opener may have been drawn anew meanwhile, or be gone).
 * Call it in the component that draws the Modal, above it.
 */
export function useReturnFocusOnClose(opened: boolean) {
  const returnFocusTo = useRef<ReturnFocusTo | undefined>(undefined);
  useEffect(() => {
    if (opened) return;
    // The Modal's own effects ran first (it is drawn below): its focus return, 10 ms later, finds
    // the focus moved since the close and leaves it here.
    returnFocusTo.current?.()?.focus();
    returnFocusTo.current = undefined;
  }, [opened]);
  return (target: ReturnFocusTo | undefined) => {
    returnFocusTo.current = target;
  };
}

/**
 * A dialog fetched the first time its button is clicked (issue 14: Mantine's Modal and FocusTrap,
 * ~10 kB gzip, are not in a list's first download). Unlike `OnFirstUse`, the button is the real one
 * from the start and stays on screen, focused by the click: the dialog returns focus to it on close.
 * The dialog is drawn closed once, then opened: Mantine's Modal notes the element to give focus
 * back to when `opened` changes, not when it is first drawn open.
 *
 * `Dialog` is undefined until the code is in: draw it as `{Dialog && <Dialog opened={opened} … />}`,
 * and spread `fetchAhead` on the button (pointer over or focus start the download).
 *
 * `openReturningFocusTo(target)`, for a dialog opened from a menu's item: see `useReturnFocusOnClose`.
 */
export function useDialogOnFirstUse<P>(part: LazyPart<P>) {
  const [Dialog, setDialog] = useState<ComponentType<P> | undefined>(() => part.loaded());
  const [opened, setOpened] = useState(false);
  const [openWhenDrawn, setOpenWhenDrawn] = useState(false);
  const returnFocusOnClose = useReturnFocusOnClose(opened);
  useEffect(() => {
    if (Dialog && openWhenDrawn) {
      setOpenWhenDrawn(false);
      setOpened(true);
    }
  }, [Dialog, openWhenDrawn]);
  const fetchAhead = () => {
    // A failed download ahead is tried again, and reported, by the click.
    part.load().catch(() => undefined);
  };
  const open = (focusOnClose: ReturnFocusTo | undefined) => {
    returnFocusOnClose(focusOnClose);
    if (Dialog) {
      setOpened(true);
      return;
    }
    part
      .load()
      .then((loaded) => {
        setDialog(() => loaded);
        setOpenWhenDrawn(true);
      })
      .catch((error: unknown) => console.error('A dialog could not be loaded', error));
  };
  return {
    Dialog,
    opened,
    open: () => open(undefined),
    openReturningFocusTo: (target: ReturnFocusTo) => open(target),
    close: () => setOpened(false),
    fetchAhead: { onPointerEnter: fetchAhead, onFocus: fetchAhead },
  };
}
