import { Code, Modal } from '@mantine/core';

/** A live-data row's reference data in a dialog (views.tsx `ReferenceButton`): fetched on the first click. */
export function ReferenceDialog({
  name,
  reference,
  opened,
  onClose,
}: {
  name: string;
  reference: unknown;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Reference data: ${name}`} size="lg">
      <Code block>{typeof reference === 'string' ? reference : JSON.stringify(reference, null, 2)}</Code>
    </Modal>
  );
}
