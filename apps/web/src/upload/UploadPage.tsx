import { Alert, Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import type { ImportKind, RowProblem } from '@obd/contract';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { RoleGate } from '../app/RoleGate.tsx';
import type { ResponseSchema } from '../lib/api.ts';
import { FileDrop } from './FileDrop.tsx';
import { DuplicateFileWarning, ResultSection, RowProblemsTable } from './ResultViews.tsx';
import { UploadProgress } from './UploadProgress.tsx';
import { useUpload } from './useUpload.ts';
import { type FileRule, fileProblem, submitProblem } from './validation.ts';

/** What every upload answer carries besides its own statistics (decisions §7). */
export interface UploadOutcome {
  importId: number;
  errors: readonly RowProblem[];
  duplicateOfImportId: number | null;
  warning?: string;
}

/** A required choice sent with the file, e.g. the make of the Update-commands page. */
export interface UploadChoice {
  /** The multipart field, e.g. `sheetName`. */
  name: string;
  label: string;
  placeholder: string;
  options: readonly string[];
  requiredMessage: string;
}

/**
 * Everything that makes one upload page different from another; `UploadPage` does the file
 * choice, the checks, the progress and the result screen.
 */
export interface UploadDeclaration<Result extends UploadOutcome> {
  title: string;
  /** The page text under the title (it states the size limit). */
  description: ReactNode;
  path: string;
  kind: ImportKind;
  schema: ResponseSchema<Result>;
  rule: FileRule;
  choice?: UploadChoice;
  /** The answer's sentence, shown above the statistics. */
  message: (result: Result) => string;
  /** The statistics of the answer. */
  statistics: (result: Result) => ReactNode;
}

/** The sentence a viewer sees instead of the upload form (the server refuses them with 403 anyway). */
export const UPLOAD_NEEDS_EDITOR = 'Uploading needs the editor role';

/**
 * A whole upload page from its declaration (spec §2.16–2.17, §4, §5, §8; decisions §7); a viewer
 * sees why they cannot upload instead of a form that would fail.
 */
export function UploadPage<Result extends UploadOutcome>({
  declaration,
}: {
  declaration: UploadDeclaration<Result>;
}) {
  return (
    <RoleGate needs="editor" title={declaration.title} reason={UPLOAD_NEEDS_EDITOR}>
      <UploadForm declaration={declaration} />
    </RoleGate>
  );
}

function UploadForm<Result extends UploadOutcome>({
  declaration,
}: {
  declaration: UploadDeclaration<Result>;
}) {
  const { state, start, reset } = useUpload(declaration);
  const [file, setFile] = useState<File | null>(null);
  const [choice, setChoice] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const { choice: choiceField, rule } = declaration;

  // Spec §4: on success the chosen file is cleared.
  useEffect(() => {
    if (state.status === 'success') setFile(null);
  }, [state.status]);

  const choose = (next: File) => {
    const wrong = fileProblem(next, rule);
    setProblem(wrong);
    setFile(wrong ? null : next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = submitProblem(
      file,
      choiceField ? { value: choice, requiredMessage: choiceField.requiredMessage } : undefined,
    );
    setProblem(missing);
    if (missing || !file) return;
    void start(file, choiceField ? { [choiceField.name]: choice } : undefined);
  };

  const uploadAnother = () => {
    setFile(null);
    setProblem(undefined);
    reset();
  };

  return (
    <Stack gap="md" maw={960}>
      <Title order={2}>{declaration.title}</Title>
      <Text c="dimmed">{declaration.description}</Text>

      {(state.status === 'idle' || state.status === 'uploading') && (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            {choiceField && (
              <NativeSelect
                name={choiceField.name}
                label={choiceField.label}
                value={choice}
                disabled={state.status === 'uploading'}
                onChange={(event) => setChoice(event.currentTarget.value)}
                data={[
                  { value: '', label: choiceField.placeholder },
                  ...choiceField.options.map((option) => ({ value: option, label: option })),
                ]}
                maw={360}
              />
            )}
            <FileDrop
              accept={rule.extensions}
              file={file}
              onFile={choose}
              disabled={state.status === 'uploading'}
            />
            {problem && (
              <Alert color="red" variant="light" role="alert">
                {problem}
              </Alert>
            )}
            {state.status === 'uploading' && <UploadProgress view={state} />}
            <Group>
              <Button type="submit" loading={state.status === 'uploading'}>
                Upload
              </Button>
            </Group>
          </Stack>
        </form>
      )}

      {state.status === 'success' && (
        <SuccessScreen declaration={declaration} result={state.result} onAgain={uploadAnother} />
      )}

      {state.status === 'error' && (
        <Stack gap="md">
          <Alert color="red" variant="light" title="Upload failed" role="alert">
            {state.message}
          </Alert>
          {state.problems.length > 0 && (
            <ResultSection title="Row problems">
              <RowProblemsTable problems={state.problems} />
            </ResultSection>
          )}
          <Group>
            <Button onClick={reset}>Try Again</Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

function SuccessScreen<Result extends UploadOutcome>({
  declaration,
  result,
  onAgain,
}: {
  declaration: UploadDeclaration<Result>;
  result: Result;
  onAgain: () => void;
}) {
  return (
    <Stack gap="md" data-testid="upload-result">
      <Alert color="green" variant="light" title="Upload complete" role="status">
        {declaration.message(result)}
      </Alert>
      <DuplicateFileWarning warning={result.warning} duplicateOfImportId={result.duplicateOfImportId} />
      <ResultSection title="Statistics">{declaration.statistics(result)}</ResultSection>
      <ResultSection title="Row problems">
        <RowProblemsTable problems={result.errors} />
      </ResultSection>
      <Group>
        <Button onClick={onAgain}>Upload Another File</Button>
      </Group>
    </Stack>
  );
}
