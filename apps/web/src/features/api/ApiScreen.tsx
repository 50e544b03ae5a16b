import { Accordion, Badge, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { OPENAPI_PATH } from '@obd/contract/constants';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiFetch } from '../../lib/api.ts';
import { ErrorState, LoadingState } from '../../list/ListStates.tsx';

/** The parts of an OpenAPI 3.1 document this screen shows. */
interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  anyOf?: JsonSchema[];
}
interface Operation {
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
  security?: unknown[];
}
interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

interface Entry {
  method: string;
  path: string;
  operation: Operation;
}

const METHOD_COLOR: Record<string, string> = { get: 'blue', post: 'green', put: 'orange', delete: 'red' };

/**
 * The API screen (issue 10): the server's OpenAPI document, grouped by area, searchable by path.
 * Each operation opens to its parameters, body fields and answers, so an operator or an
 * integrator can see what a call takes without reading the code.
 */
export function ApiScreen() {
  const document = useQuery({
    queryKey: ['openapi'],
    queryFn: ({ signal }) => apiFetch(OPENAPI_PATH, { signal }) as Promise<OpenApiDocument>,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [search, setSearch] = useState('');
  const groups = useMemo(() => groupByTag(document.data, search), [document.data, search]);

  return (
    <Stack gap="md">
      <Title order={2}>API</Title>
      {document.isPending && <LoadingState />}
      {document.isError && <ErrorState message={document.error.message} />}
      {document.data && (
        <>
          <Text size="sm">{document.data.info.description}</Text>
          <Text size="sm" c="dimmed">
            The machine-readable document (OpenAPI 3.1) is at <Code>{OPENAPI_PATH}</Code>.
          </Text>
          <TextInput
            label="Find an endpoint"
            placeholder="e.g. ScanDetail or imports"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            maw={360}
          />
          {groups.length === 0 && <Text c="dimmed">No endpoint matches “{search}”.</Text>}
          {groups.map(([tag, entries]) => (
            <Stack key={tag} gap="xs">
              <Title order={3} size="h4">
                {tag}
              </Title>
              <Accordion variant="separated" multiple>
                {entries.map((entry) => (
                  <OperationItem key={`${entry.method} ${entry.path}`} entry={entry} />
                ))}
              </Accordion>
            </Stack>
          ))}
        </>
      )}
    </Stack>
  );
}

function OperationItem({ entry }: { entry: Entry }) {
  const { method, path, operation } = entry;
  const body = operation.requestBody?.content?.['application/json']?.schema;
  const answers = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
  return (
    <Accordion.Item value={`${method} ${path}`}>
      <Accordion.Control>
        <Group gap="sm" wrap="nowrap">
          <Badge color={METHOD_COLOR[method] ?? 'gray'} miw={72}>
            {method.toUpperCase()}
          </Badge>
          <Text ff="monospace" size="sm">
            {path}
          </Text>
          {operation.security?.length === 0 && (
            <Badge variant="outline" color="gray">
              no sign-in
            </Badge>
          )}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          {(operation.parameters?.length ?? 0) > 0 && (
            <FieldTable
              caption="Parameters"
              fields={(operation.parameters ?? []).map((p) => ({
                name: p.name,
                where: p.in,
                required: Boolean(p.required),
                schema: p.schema,
              }))}
            />
          )}
          {body && <FieldTable caption="Body (JSON)" fields={fieldsOf(body, 'body')} />}
          {answers.map(([status, answer]) => {
            const schema = answer.content?.['application/json']?.schema;
            return schema?.properties ? (
              <FieldTable key={status} caption={`Answer ${status}`} fields={fieldsOf(schema, 'answer')} />
            ) : (
              <Text key={status} size="sm">
                Answer {status}: {answer.description ?? 'no body'}
              </Text>
            );
          })}
          <Text size="sm" c="dimmed">
            Errors answer <Code>{'{ error, code }'}</Code> with a sentence to show a person.
          </Text>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

interface Field {
  name: string;
  where: string;
  required: boolean;
  schema?: JsonSchema;
}

function FieldTable({ caption, fields }: { caption: string; fields: Field[] }) {
  return (
    <Table withTableBorder fz="sm" captionSide="top">
      <Table.Caption style={{ textAlign: 'left' }}>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>In</Table.Th>
          <Table.Th>Type</Table.Th>
          <Table.Th>Required</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {fields.map((field) => (
          <Table.Tr key={`${field.where} ${field.name}`}>
            <Table.Td ff="monospace">{field.name}</Table.Td>
            <Table.Td>{field.where}</Table.Td>
            <Table.Td>{describe(field.schema)}</Table.Td>
            <Table.Td>{field.required ? 'yes' : 'no'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The top-level fields of an object schema. */
function fieldsOf(schema: JsonSchema, where: string): Field[] {
  return Object.entries(schema.properties ?? {}).map(([name, inner]) => ({
    name,
    where,
    required: schema.required?.includes(name) ?? false,
    schema: inner,
  }));
}

/** A schema in a few words: `string (≤ 200 characters)`, `integer 1–1000, default 30`, `integer ≥ 1`, `one of a, b`. */
export function describe(schema: JsonSchema | undefined): string {
  if (!schema) return 'any';
  if (schema.enum) return `one of ${schema.enum.map(String).join(', ')}`;
  if (schema.anyOf) return schema.anyOf.map(describe).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  const parts = [type === 'array' ? `array of ${describe(schema.items)}` : type];
  if (schema.maxLength !== undefined) parts.push(`(≤ ${schema.maxLength} characters)`);
  const huge = (n: number | undefined) => n === undefined || Math.abs(n) >= Number.MAX_SAFE_INTEGER;
  const [min, max] = [schema.minimum, schema.maximum].map((n) => (huge(n) ? undefined : n));
  if (min !== undefined && max !== undefined) parts.push(`${min}–${max}`);
  else if (min !== undefined) parts.push(`≥ ${min}`);
  else if (max !== undefined) parts.push(`≤ ${max}`);
  if (schema.default !== undefined) parts.push(`, default ${JSON.stringify(schema.default)}`);
  return parts.join(' ').replace(' ,', ',');
}

/** The operations by tag, in the document's order, keeping those whose path contains `search`. */
function groupByTag(document: OpenApiDocument | undefined, search: string): [string, Entry[]][] {
  if (!document) return [];
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, Entry[]>();
  for (const [path, operations] of Object.entries(document.paths)) {
    if (needle && !path.toLowerCase().includes(needle)) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const tag = operation.tags?.[0] ?? 'Other';
      groups.set(tag, [...(groups.get(tag) ?? []), { method, path, operation }]);
    }
  }
  return [...groups.entries()];
}
