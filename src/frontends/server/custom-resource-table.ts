import type { CustomResourceColumnDefinition } from '../../apiserver/apiextensions/types';
import { fromTime, type KubeObject } from '../../apimachinery/object';
import { humanDuration, type Printer, type TableColumn } from '../../apiserver/printers/printer';

/**
 * apiextensionshelpers serveDefaultColumnsIfEmpty: a CRD version without additionalPrinterColumns
 * is printed with one Age column (metadata.creationTimestamp); one with columns gets only those.
 */
const DEFAULT_COLUMNS: readonly CustomResourceColumnDefinition[] = [
  {
    name: 'Age',
    type: 'date',
    jsonPath: '.metadata.creationTimestamp',
    description: 'When the object was created (metadata.creationTimestamp), in UTC.',
  },
];

/**
 * The server-side printing of custom resources (pkg/registry/customresource/tableconvertor):
 * a Name column, then each printer column of the served version — its name, type, format,
 * priority and description (or "Custom resource definition column (in JSONPath format): PATH")
 * — with the cell read at its JSONPath: nothing found is null; a string column prints the value;
 * integer, number and boolean columns take values of their type only; a date column shows how
 * long ago the time was (ConvertToHumanReadableDateType), `<invalid>` for a malformed one.
 */
export function customResourcePrinter(given: readonly CustomResourceColumnDefinition[]): Printer {
  const crdColumns = given.length > 0 ? given : DEFAULT_COLUMNS;
  const columns: TableColumn[] = [
    {
      name: 'Name',
      type: 'string',
      format: 'name',
      description: "The object's name, unique within its namespace.",
      priority: 0,
    },
    ...crdColumns.map((c) => ({
      name: c.name,
      type: c.type,
      format: c.format ?? '',
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`,
      priority: c.priority ?? 0,
    })),
  ];
  const paths = crdColumns.map((c) => parseJsonPath(c.jsonPath));
  return {
    columns,
    cells: (obj, now) =>
      [obj.metadata.name ?? '', ...crdColumns.map((c, i) => cell(c.type, lookup(obj, paths[i]), now))] as (
        | string
        | number
      )[],
  };
}

function cell(type: string, value: unknown, now: number): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : JSON.stringify(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date': {
      if (typeof value !== 'string') return null;
      const t = fromTime(value);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(now - t);
    }
    default:
      return null;
  }
}

/** The steps of a simple JSONPath (`.spec.replicas`, `.status.conditions[0].type`, `.metadata.labels['app']`). */
function parseJsonPath(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\[['"]([^'"]+)['"]\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path)) !== null) steps.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]));
  return steps;
}

function lookup(obj: KubeObject, steps: readonly (string | number)[]): unknown {
  let v: unknown = obj;
  for (const s of steps) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}
