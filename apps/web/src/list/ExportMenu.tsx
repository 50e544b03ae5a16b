import { Button, Menu } from '@mantine/core';

/**
 * The download button's menu when the operator hid columns (issue 12): the visible columns or all
 * of them. Fetched on first use (ExportButton.tsx), with the floating-ui behind Mantine's Menu.
 */
export function ExportMenu({
  label,
  starting,
  disabled,
  onDownload,
  openAtOnce = false,
}: {
  label: string;
  starting: boolean;
  disabled: boolean;
  /** `visibleOnly`: the columns on screen; otherwise every column. */
  onDownload: (visibleOnly: boolean) => void;
  openAtOnce?: boolean;
}) {
  return (
    <Menu position="bottom-end" shadow="md" defaultOpened={openAtOnce}>
      <Menu.Target>
        <Button variant="light" loading={starting} disabled={disabled}>
          {label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onDownload(true)}>Visible columns</Menu.Item>
        <Menu.Item onClick={() => onDownload(false)}>All columns</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
