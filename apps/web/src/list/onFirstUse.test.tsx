import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { type LazyPart, lazyPart, OnFirstUse, useDialogOnFirstUse } from './onFirstUse.tsx';

/** A part shaped like the list's menus: it reads `openAtOnce` once, when it mounts. */
function Menu({ openAtOnce }: { openAtOnce: boolean }) {
  const [open] = useState(openAtOnce);
  return open ? <p>menu open</p> : <button type="button">menu closed</button>;
}

function renderTool() {
  const part = lazyPart(async () => Menu);
  render(
    <OnFirstUse
      part={part}
      placeholder={(use) => (
        <button type="button" {...use}>
          stand-in
        </button>
      )}
      render={(Part, openAtOnce) => <Part openAtOnce={openAtOnce} />}
    />,
  );
  return part;
}

describe('OnFirstUse', () => {
  it('opens the part when the stand-in is clicked', async () => {
    renderTool();
    fireEvent.click(screen.getByRole('button', { name: 'stand-in' }));
    expect(await screen.findByText('menu open')).toBeTruthy();
  });

  it('only fetches the part on pointer over: the stand-in stays, the very same element, until a click', async () => {
    const part = renderTool();
    const standIn = screen.getByRole('button', { name: 'stand-in' });
    fireEvent.pointerEnter(standIn);
    await act(() => part.load());
    expect(screen.getByRole('button', { name: 'stand-in' })).toBe(standIn);
    expect(screen.queryByText('menu open')).toBeNull();
  });

  it('draws a part already downloaded on this page at once, closed', async () => {
    const part = lazyPart(async () => Menu);
    await part.load();
    render(
      <OnFirstUse
        part={part}
        placeholder={() => <span>stand-in</span>}
        render={(Part, open) => <Part openAtOnce={open} />}
      />,
    );
    expect(screen.getByRole('button', { name: 'menu closed' })).toBeTruthy();
  });

  // The List views journey's flake: the pointer's download ended before the click.
  it('opens the part when the click comes after a pointer-over download ended', async () => {
    const part = renderTool();
    const standIn = screen.getByRole('button', { name: 'stand-in' });
    fireEvent.pointerEnter(standIn);
    await act(() => part.load());
    fireEvent.click(standIn);
    expect(await screen.findByText('menu open')).toBeTruthy();
  });
});

interface DialogProps {
  opened: boolean;
  onClose: () => void;
}

/** A dialog shaped like the list's: drawn closed, then opened; it moves no focus itself. */
function Dialog({ opened, onClose }: DialogProps) {
  return opened ? (
    <div role="dialog">
      <button type="button" onClick={onClose}>
        close
      </button>
    </div>
  ) : null;
}

/** A menu's item opens the dialog, then leaves the page, as a closed menu's items do. */
function MenuOpeningADialog({ part }: { part: LazyPart<DialogProps> }) {
  const dialog = useDialogOnFirstUse(part);
  const [menuOpen, setMenuOpen] = useState(true);
  const Loaded = dialog.Dialog;
  return (
    <>
      <button type="button">opener</button>
      {menuOpen && (
        <button
          type="button"
          onClick={() => {
            setMenuOpen(false);
            dialog.openReturningFocusTo(() => screen.queryByRole('button', { name: 'opener' }));
          }}
        >
          item
        </button>
      )}
      {Loaded && <Loaded opened={dialog.opened} onClose={dialog.close} />}
    </>
  );
}

describe('useDialogOnFirstUse', () => {
  it('gives focus to the element named when opened, looked up when the dialog closes', async () => {
    render(<MenuOpeningADialog part={lazyPart(async () => Dialog)} />);
    const item = screen.getByRole('button', { name: 'item' });
    item.focus();
    fireEvent.click(item);
    const close = await screen.findByRole('button', { name: 'close' });
    close.focus();
    fireEvent.click(close);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'opener' }));
  });
});
