import type { KubeObject } from '../../apimachinery/object';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import { printerOf } from '../../apiserver/kinds';
import { AGE_DESCRIPTION, column, NAME, type Printer } from '../../apiserver/printers/printer';

/**
 * R73 — server-side printing: the metav1.Table kube-apiserver answers for
 * `Accept: application/json;as=Table;g=meta.k8s.io;v=v1` (registry/rest/table.go, the
 * TableConvertor of each kind's storage), with the columns and cells of the kind's printer
 * (apiserver/printers/, named by its kind module) or, for a kind without one, Name and Created At.
 */

/**
 * A metav1.Table of `objects` (stored form) for `resource`. `noHeaders` leaves the column
 * definitions out (every watch event after the first, handlers/watch.go); `includeObject`
 * is the query's includeObject (None, Metadata — the default — or Object).
 */
export function toTable(
  resource: string,
  objects: readonly KubeObject[],
  options: {
    now: number;
    release?: Release;
    resourceVersion?: string;
    continue?: string;
    remainingItemCount?: number;
    noHeaders?: boolean;
    includeObject?: string;
    served?: (o: KubeObject) => KubeObject;
    printer?: Printer;
  },
): object {
  const printer = options.printer ?? printerOf(resource);
  const columns = printer?.columnsFor?.(options.release ?? DEFAULT_RELEASE) ??
    printer?.columns ?? [NAME, column('Created At', AGE_DESCRIPTION, 0, 'date')];
  const rows = objects.map((obj) => {
    const row = rowWithoutObject(resource, obj, options, printer);
    const object = rowObject(obj, options.includeObject, options.served);
    if (object) row.object = object;
    return row;
  });
  const metadata: Record<string, unknown> = {};
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (options.continue !== undefined) metadata.continue = options.continue;
  if (options.remainingItemCount !== undefined) metadata.remainingItemCount = options.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    ...(options.noHeaders ? {} : { columnDefinitions: columns }),
    rows,
  };
}

/** A TableRow's cells and conditions (its object is added by the caller). */
function rowWithoutObject(
  resource: string,
  obj: KubeObject,
  options: { now: number; release?: Release },
  printer: Printer | undefined = printerOf(resource),
): Record<string, unknown> {
  const cells = printer
    ? printer.cells(obj, options.now, options.release ?? DEFAULT_RELEASE)
    : [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? ''];
  const row: Record<string, unknown> = { cells };
  const conditions = printer?.conditions?.(obj);
  if (conditions) row.conditions = conditions;
  return row;
}

/**
 * The JSON of a TableRow whose object is PartialObjectMetadata (includeObject unset or Metadata),
 * given that object's JSON already encoded: the bytes of JSON.stringify of toTable's row, for a
 * Table LIST written item by item (list-encoding.ts), as parts — the row's cells as text, the
 * object's cached bytes, the closing brace — that are written as they are, never joined.
 */
export function encodedTableRow(
  resource: string,
  obj: KubeObject,
  partialMetadata: Uint8Array,
  options: { now: number; release?: Release; printer?: Printer },
): readonly (Uint8Array | string)[] {
  const row = JSON.stringify(rowWithoutObject(resource, obj, options, options.printer));
  return [`${row.slice(0, -1)},"object":`, partialMetadata, '}'];
}

/** TableRow.object per includeObject: PartialObjectMetadata by default (rest/table.go, handlers/response.go). */
function rowObject(
  obj: KubeObject,
  includeObject: string | undefined,
  served?: (o: KubeObject) => KubeObject,
): unknown {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return served ? served(obj) : obj;
  return partialObjectMetadata(obj);
}

/** The PartialObjectMetadata of an object (a Table row's default object, a PartialObjectMetadataList item). */
export function partialObjectMetadata(obj: KubeObject): object {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}
