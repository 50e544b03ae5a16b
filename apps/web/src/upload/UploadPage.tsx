import { Alert, Button, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import type { ImportKind, RowProblem } from '@obd/contract';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { RoleGate } from '../app/RoleGate.tsx';
import type { ResponseSchema } from '../lib/api.ts';
import { FileDrop } from './FileDrop.tsx';
import {
  DownloadProblemsButton,
  MappingForm,
  PreviewSheetsTable,
  previewExpiryText,
} from './ImportFlowViews.tsx';
import { DuplicateFileWarning, ResultSection, RowProblemsTable } from './ResultViews.tsx';
import { RunningImports } from './RunningImports.tsx';
import { UploadProgress } from './UploadProgress.tsx';
import { useUpload } from './useUpload.ts';
import { type FileRule, fileProblem, submitProblem } from './validation.ts';

/** What every upload answer carries besides its own statistics (decisions §7). */
export interface UploadOutcome {
  importId: number;
  errors: readonly RowProblem[];
  duplicateOfImportId: number | null;
  warning?: string;
  /** Set when the import of a preview came out different from it (issue 15). */
  previewChanged?: string;
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
  const { state, start, reset, decide } = useUpload(declaration);
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
    // Every page previews first (issue 15): nothing is written until "Import".
    void start(file, choiceField ? { [choiceField.name]: choice } : undefined, { preview: true });
  };

  /** Uploads the same file again with the operator's columns for the fields not found by name. */
  const retryWithMapping = (mapping: Record<string, string>) => {
    if (!file) return;
    const fields: Record<string, string> = choiceField ? { [choiceField.name]: choice } : {};
    void start(file, { ...fields, mapping: JSON.stringify(mapping) }, { preview: true });
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

      {state.status === 'idle' && <RunningImports kind={declaration.kind} />}
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

      {state.status === 'preview' && (
        <Stack gap="md" data-testid="upload-preview">
          <Alert color="blue" variant="light" title="Preview: nothing imported yet" role="status">
            <Stack gap={4}>
              <Text size="sm">{declaration.message(state.result)}</Text>
              <Text size="sm">{previewExpiryText(state.preview)}</Text>
            </Stack>
          </Alert>
          <DuplicateFileWarning
            warning={state.result.warning}
            duplicateOfImportId={state.result.duplicateOfImportId}
          />
          <ResultSection title="What the import would do">
            <PreviewSheetsTable preview={state.preview} />
          </ResultSection>
          <ResultSection title="Row problems">
            <RowProblemsTable problems={state.result.errors} />
            {state.result.errors.length > 0 && <DownloadProblemsButton importId={state.importId} />}
          </ResultSection>
          <Group>
            <Button
              onClick={() => void decide('import')}
              loading={state.busy === 'import'}
              disabled={state.busy === 'cancel'}
            >
              Import
            </Button>
            <Button
              variant="default"
              onClick={() => void decide('cancel')}
              loading={state.busy === 'cancel'}
              disabled={state.busy === 'import'}
            >
              Cancel
            </Button>
          </Group>
        </Stack>
      )}

      {state.status === 'success' && (
        <SuccessScreen declaration={declaration} result={state.result} onAgain={uploadAnother} />
      )}

      {state.status === 'error' && (
        <Stack gap="md">
          <Alert color="red" variant="light" title="Upload failed" role="alert">
            {state.message}
          </Alert>
          {state.mapping && file && <MappingForm mapping={state.mapping} onSubmit={retryWithMapping} />}
          {state.problems.length > 0 && (
            <ResultSection title="Row problems">
              <RowProblemsTable problems={state.problems} />
              {state.importId !== undefined && <DownloadProblemsButton importId={state.importId} />}
            </ResultSection>
          )}
          <Group>
            <Button variant={state.mapping && file ? 'default' : 'filled'} onClick={reset}>
              Try Again
            </Button>
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
      {result.previewChanged && (
        <Alert color="yellow" variant="light" title="The database changed since the preview" role="alert">
          {result.previewChanged}
        </Alert>
      )}
      <ResultSection title="Row problems">
        <RowProblemsTable problems={result.errors} />
        {result.errors.length > 0 && <DownloadProblemsButton importId={result.importId} />}
      </ResultSection>
      <Group>
        <Button onClick={onAgain}>Upload Another File</Button>
      </Group>
    </Stack>
  );
}
