import { Button, Group } from '@mantine/core';
import { pageWindow } from '@obd/contract/constants';

interface PagerProps {
  page: number;
  pages: number;
  /** While a page loads every button is disabled, so clicks cannot pile up requests. */
  disabled: boolean;
  onPageChange: (page: number) => void;
  /** First and Last buttons around Previous and Next. */
  ends?: boolean;
}

/** Previous, up to 5 numbered pages centred on the current one, Next. Absent for a single page. */
export function Pager({ page, pages, disabled, onPageChange, ends = false }: PagerProps) {
  if (pages <= 1) return null;
  return (
    <Group component="nav" aria-label="Pagination" justify="center" gap="xs">
      {ends && (
        <Button variant="default" disabled={disabled || page <= 1} onClick={() => onPageChange(1)}>
          First
        </Button>
      )}
      <Button variant="default" disabled={disabled || page <= 1} onClick={() => onPageChange(page - 1)}>
        Previous
      </Button>
      {pageWindow(page, pages).map((number) => {
        const current = number === page;
        return (
          <Button
            key={number}
            variant={current ? 'filled' : 'default'}
            aria-label={`Page ${number}`}
            aria-current={current ? 'page' : undefined}
            disabled={disabled}
            onClick={() => onPageChange(number)}
            miw={40}
            px="xs"
          >
            {number}
          </Button>
        );
      })}
      <Button variant="default" disabled={disabled || page >= pages} onClick={() => onPageChange(page + 1)}>
        Next
      </Button>
      {ends && (
        <Button variant="default" disabled={disabled || page >= pages} onClick={() => onPageChange(pages)}>
          Last
        </Button>
      )}
    </Group>
  );
}
