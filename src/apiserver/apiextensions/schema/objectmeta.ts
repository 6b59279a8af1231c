/**
 * The metadata of an x-kubernetes-embedded-resource object inside a custom resource
 * (apiextensions-apiserver pkg/apiserver/schema/objectmeta/validation.go validateEmbeddedResource, the
 * "metadata" case): it is decoded into an ObjectMeta, which must succeed, and validated as
 * apimachinery/pkg/api/validation/objectmeta.go ValidateObjectMeta does, with path-segment names and
 * a namespace only when one is given; an empty name passes (upstream fills in a placeholder) (R304).
 * Not checked here: ownerReferences and managedFields beyond their JSON types.
 *
 * coerceObjectMeta is the other half (objectmeta/coerce.go CoerceWithOptions and GetObjectMetaWithOptions):
 * the metadata of the root and of each embedded resource is written back as the ObjectMeta it decodes
 * to, which drops the fields ObjectMeta does not have, and those are reported for fieldValidation (R312).
 */
import type { FieldError } from '../../../apimachinery/errors';
import { labelValueErrors, qualifiedNameErrors } from '../../../apimachinery/selectors';
import { goBadValue } from './go-print';
import { type JSONSchemaProps, additionalPropertiesSchema, isJSONObject, itemsSchema } from './types';

/** The Go types of ObjectMeta's fields, as encoding/json names them in its errors. */
const FIELD_TYPES: Record<string, 'string' | 'int64' | 'map[string]string' | '[]string' | 'list' | 'v1.Time'> = {
  name: 'string',
  generateName: 'string',
  namespace: 'string',
  selfLink: 'string',
  uid: 'string',
  resourceVersion: 'string',
  generation: 'int64',
  creationTimestamp: 'v1.Time',
  deletionTimestamp: 'v1.Time',
  deletionGracePeriodSeconds: 'int64',
  labels: 'map[string]string',
  annotations: 'map[string]string',
  ownerReferences: 'list',
  finalizers: '[]string',
  managedFields: 'list',
};

const GO_TYPE_NAMES: Record<string, string> = { list: '[]v1.OwnerReference', 'v1.Time': 'v1.Time' };

/** The JSON kind encoding/json names in "cannot unmarshal X into …". */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

/** encoding/json's error for the first member of the metadata that does not fit ObjectMeta, if any. */
function unmarshalError(meta: unknown): string | undefined {
  if (!isJSONObject(meta))
    return meta === null ? undefined : `json: cannot unmarshal ${jsonKind(meta)} into Go value of type v1.ObjectMeta`;
  for (const [k, v] of Object.entries(meta)) {
    const type = FIELD_TYPES[k];
    if (!type || v === null) continue;
    const goType = k === 'managedFields' ? '[]v1.ManagedFieldsEntry' : (GO_TYPE_NAMES[type] ?? type);
    const wrong = (kind: string, asType = goType): string =>
      `json: cannot unmarshal ${kind} into Go struct field ObjectMeta.${k} of type ${asType}`;
    if ((type === 'string' || type === 'v1.Time') && typeof v !== 'string') return wrong(jsonKind(v));
    if (type === 'int64' && !(typeof v === 'number' && Number.isInteger(v)))
      return wrong(typeof v === 'number' ? 'number ' + String(v) : jsonKind(v));
    if (type === 'map[string]string') {
      if (!isJSONObject(v)) return wrong(jsonKind(v));
      const bad = Object.values(v).find((x) => x !== null && typeof x !== 'string');
      if (bad !== undefined) return wrong(jsonKind(bad), 'string');
    }
    if (type === '[]string') {
      if (!Array.isArray(v)) return wrong(jsonKind(v));
      const bad = v.find((x) => x !== null && typeof x !== 'string');
      if (bad !== undefined) return wrong(jsonKind(bad), 'string');
    }
    if (type === 'list' && !Array.isArray(v)) return wrong(jsonKind(v));
  }
  return undefined;
}

/** path.ValidatePathSegmentName: "." and ".." are no names; "/" and "%" may appear in none (nor in a prefix). */
function pathSegmentNameErrors(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  return ['/', '%'].filter((c) => name.includes(c)).map((c) => `may not contain '${c}'`);
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** validation.IsDNS1123Label, as ValidateNamespaceName uses it. */
function dns1123LabelErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS1123_LABEL.test(value)) {
    errs.push(
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return errs;
}

const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** The errors of an embedded resource's `metadata` at `path` (`spec.template.metadata`). */
export function embeddedObjectMetaErrors(path: string, meta: unknown): FieldError[] {
  const invalid = (field: string, value: unknown, detail: string): FieldError => ({
    field,
    type: 'Invalid',
    value,
    printedValue: goBadValue(value),
    detail,
  });
  const decodeError = unmarshalError(meta);
  if (decodeError) return [invalid(path, meta, decodeError)];
  if (!isJSONObject(meta)) return [];
  const str = (k: string): string => (typeof meta[k] === 'string' ? (meta[k] as string) : '');
  const errs: FieldError[] = [];
  const generateName = str('generateName');
  if (generateName)
    for (const msg of pathSegmentNameErrors(generateName, true))
      errs.push(invalid(`${path}.generateName`, generateName, msg));
  const name = str('name');
  if (name) for (const msg of pathSegmentNameErrors(name, false)) errs.push(invalid(`${path}.name`, name, msg));
  const namespace = str('namespace');
  if (namespace)
    for (const msg of dns1123LabelErrors(namespace)) errs.push(invalid(`${path}.namespace`, namespace, msg));
  if (typeof meta.generation === 'number' && meta.generation < 0)
    errs.push(invalid(`${path}.generation`, meta.generation, 'must be greater than or equal to 0'));
  // Go visits these maps in random order; keys are taken sorted.
  const labels = isJSONObject(meta.labels) ? (meta.labels as Record<string, string>) : {};
  for (const k of Object.keys(labels).sort()) {
    for (const msg of qualifiedNameErrors(k)) errs.push(invalid(`${path}.labels`, k, msg));
    for (const msg of labelValueErrors(labels[k] ?? '')) errs.push(invalid(`${path}.labels`, labels[k] ?? '', msg));
  }
  const annotations = isJSONObject(meta.annotations) ? (meta.annotations as Record<string, string>) : {};
  let size = 0;
  for (const k of Object.keys(annotations).sort()) {
    for (const msg of qualifiedNameErrors(k.toLowerCase())) errs.push(invalid(`${path}.annotations`, k, msg));
    size += Buffer.byteLength(k) + Buffer.byteLength(annotations[k] ?? '');
  }
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT)
    errs.push({
      field: `${path}.annotations`,
      type: 'Too long',
      detail: `may not be more than ${TOTAL_ANNOTATION_SIZE_LIMIT} bytes`,
    });
  const finalizers = Array.isArray(meta.finalizers) ? (meta.finalizers as string[]) : [];
  for (const f of finalizers)
    for (const msg of qualifiedNameErrors(f ?? '')) errs.push(invalid(`${path}.finalizers`, f, msg));
  if (finalizers.includes('orphan') && finalizers.includes('foregroundDeletion')) {
    errs.push({
      field: `${path}.finalizers`,
      type: 'Invalid',
      value: finalizers,
      printedValue: `[]string{${finalizers.map((f) => JSON.stringify(f)).join(', ')}}`,
      detail: 'finalizer orphan and foregroundDeletion cannot be both set',
    });
  }
  return errs;
}

const OWNER_REFERENCE_FIELDS = new Set(['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion']);
const MANAGED_FIELDS_ENTRY_FIELDS = new Set([
  'manager',
  'operation',
  'apiVersion',
  'time',
  'fieldsType',
  'fieldsV1',
  'subresource',
]);

/** Whether an ObjectMeta member is empty, so that re-encoding it (every member is omitempty) leaves it out. */
function omitted(v: unknown): boolean {
  if (v === null || v === '' || v === 0 || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isJSONObject(v) && Object.keys(v).length === 0;
}

/** Drops the members of a list's objects that their Go struct lacks, recording `<path>[i].<member>`. */
function coerceList(list: unknown, known: Set<string>, path: string, unknown: string[]): void {
  if (!Array.isArray(list)) return;
  list.forEach((item, i) => {
    if (!isJSONObject(item)) return;
    for (const k of Object.keys(item)) {
      if (known.has(k)) continue;
      unknown.push(`${path}[${i}].${k}`);
      delete item[k];
    }
  });
}

/**
 * One metadata object re-encoded as ObjectMeta: unknown members dropped (their paths recorded, as
 * sigs.k8s.io/json's strict decoding names them), empty members left out. Metadata that does not
 * decode is left as it is (validation reports it).
 */
export function coerceMeta(meta: Record<string, unknown>, path: string, unknown: string[]): void {
  if (unmarshalError(meta)) return;
  for (const k of Object.keys(meta)) {
    if (!Object.prototype.hasOwnProperty.call(FIELD_TYPES, k)) {
      unknown.push(`${path}.${k}`);
      delete meta[k];
    } else if (omitted(meta[k])) delete meta[k];
  }
  coerceList(meta.ownerReferences, OWNER_REFERENCE_FIELDS, `${path}.ownerReferences`, unknown);
  coerceList(meta.managedFields, MANAGED_FIELDS_ENTRY_FIELDS, `${path}.managedFields`, unknown);
}

function walk(
  x: unknown,
  s: JSONSchemaProps | undefined,
  path: string | undefined,
  embedded: boolean,
  unknown: string[],
): void {
  if (!s) return;
  const child = (k: string): string => (path === undefined ? k : `${path}.${k}`);
  if (isJSONObject(x)) {
    if (embedded && isJSONObject(x.metadata)) coerceMeta(x.metadata, child('metadata'), unknown);
    for (const k of Object.keys(x)) {
      const prop = s.properties && Object.prototype.hasOwnProperty.call(s.properties, k) ? s.properties[k] : undefined;
      const ap = additionalPropertiesSchema(s);
      if (prop) walk(x[k], prop, child(k), prop['x-kubernetes-embedded-resource'] === true, unknown);
      else if (s.additionalProperties !== undefined)
        walk(x[k], ap, `${path ?? ''}[${k}]`, ap?.['x-kubernetes-embedded-resource'] === true, unknown);
    }
  } else if (Array.isArray(x)) {
    const items = itemsSchema(s);
    x.forEach((v, i) =>
      walk(v, items, `${path ?? ''}[${i}]`, items?.['x-kubernetes-embedded-resource'] === true, unknown),
    );
  }
}

/**
 * Re-encodes the metadata of every embedded resource (and of the root with isResourceRoot) as ObjectMeta,
 * in place, and returns the paths of the members dropped (`spec.template.metadata.foo`), sorted.
 */
export function coerceObjectMeta(obj: unknown, schema: JSONSchemaProps | undefined, isResourceRoot: boolean): string[] {
  const unknown: string[] = [];
  walk(obj, schema ?? {}, undefined, isResourceRoot || schema?.['x-kubernetes-embedded-resource'] === true, unknown);
  return unknown.sort();
}
