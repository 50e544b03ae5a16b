import { MantineProvider } from '@mantine/core';
import { pageWindow } from '@obd/contract/constants';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Pager } from './Pager.tsx';

describe('pageWindow', () => {
  it('lists every page when there are 5 or fewer', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(3, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(5, 5)).toEqual([1, 2, 3, 4, 5]);
  });

  it('centres 5 pages on the current one', () => {
    expect(pageWindow(6, 20)).toEqual([4, 5, 6, 7, 8]);
    expect(pageWindow(4, 6)).toEqual([2, 3, 4, 5, 6]);
  });

  it('clamps the window to the first and the last page', () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(2, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(19, 20)).toEqual([16, 17, 18, 19, 20]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });
});

function renderPager(page: number, pages: number, disabled = false) {
  const onPageChange = vi.fn();
  render(
    <MantineProvider>
      <Pager page={page} pages={pages} disabled={disabled} onPageChange={onPageChange} />
    </MantineProvider>,
  );
  const numbers = () =>
    screen
      .getAllByRole('button')
      .map((button) => button.textContent)
      .filter((text) => /^\d+$/.test(text ?? ''));
  const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
  return { onPageChange, numbers, button };
}

describe('Pager', () => {
  it('is absent for a single page', () => {
    renderPager(1, 1);
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows the window around the current page, highlighted', () => {
    const { numbers, button } = renderPager(10, 40);
    expect(numbers()).toEqual(['8', '9', '10', '11', '12']);
    expect(button('Page 10').getAttribute('aria-current')).toBe('page');
    expect(button('Page 9').getAttribute('aria-current')).toBeNull();
  });

  it('disables Previous on the first page and Next on the last', () => {
    const first = renderPager(1, 3);
    expect(first.button('Previous').disabled).toBe(true);
    expect(first.button('Next').disabled).toBe(false);
    cleanup();
    const last = renderPager(3, 3);
    expect(last.button('Previous').disabled).toBe(false);
    expect(last.button('Next').disabled).toBe(true);
  });

  it('asks for the page clicked', () => {
    const { onPageChange, button } = renderPager(5, 9);
    fireEvent.click(button('Next'));
    fireEvent.click(button('Previous'));
    fireEvent.click(button('Page 7'));
    expect(onPageChange.mock.calls).toEqual([[6], [4], [7]]);
  });

  it('disables every button while a page loads', () => {
    renderPager(2, 9, true);
    for (const button of screen.getAllByRole('button'))
      expect((button as HTMLButtonElement).disabled).toBe(true);
  });
});
