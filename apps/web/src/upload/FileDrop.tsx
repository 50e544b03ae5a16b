import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { type DragEvent, useRef, useState } from 'react';
import { bytesText } from './format.ts';

interface FileDropProps {
  /** Extensions for the picker's filter, e.g. `['.xlsx', '.xls']`. */
  accept: readonly string[];
  file: File | null;
  /** Called with the file dropped or picked; the page decides whether it is acceptable. */
  onFile: (file: File) => void;
  disabled?: boolean;
}

/**
 * Drag-and-drop area with a file picker: drop a file on it, or click it or its Choose File button
 * to choose one. Shows the chosen file's name and size. The area is not a button itself: a button
 * holding a button is one control to a screen reader and keyboard (axe: nested-interactive); the
 * Choose File button is the keyboard's way in.
 */
export function FileDrop({ accept, file, onFile, disabled = false }: FileDropProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const pick = () => {
    if (!disabled) input.current?.click();
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped && !disabled) onFile(dropped);
  };
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    if (!disabled) setOver(true);
  };

  return (
    <Paper
      withBorder
      radius="md"
      p="xl"
      data-testid="file-drop"
      onClick={pick}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over ? 'var(--mantine-primary-color-filled)' : undefined,
        // The light tint of each scheme (a fixed blue-0 would glare on a dark page).
        background: over ? 'var(--mantine-primary-color-light)' : undefined,
        cursor: disabled ? 'not-allowed' : 'pointer',
        textAlign: 'center',
      }}
    >
      <input
        ref={input}
        type="file"
        hidden
        data-testid="file-input"
        accept={accept.join(',')}
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0];
          if (chosen) onFile(chosen);
          // Choosing the same file again after a reset must fire `change` again.
          event.currentTarget.value = '';
        }}
      />
      <Stack gap="xs" align="center">
        <Text fw={600}>Drag and drop your file here</Text>
        <Text size="sm" c="dimmed">{`or click to browse (${accept.join(', ')})`}</Text>
        <Group justify="center">
          <Button
            variant="light"
            disabled={disabled}
            onClick={(event) => {
              event.stopPropagation();
              pick();
            }}
          >
            Choose File
          </Button>
        </Group>
        {file && (
          <Text size="sm" data-testid="chosen-file">
            {`Selected: ${file.name} (${bytesText(file.size)})`}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
