import type { FieldError } from '../../apimachinery/errors';
import { jsonEqual, toTime } from '../../apimachinery/object';
import type { Strategy } from '../strategy';
import { validateObjectMetaUpdate, validateQualifiedFinalizers } from '../../apimachinery/validation';
import { dns1035, dns1123Subdomain } from '../../apimachinery/selectors';
import type { Release } from '../../foundation/release';
import { validateCRDSchema, type JSONSchemaProps } from './custom-resource-schema';
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from './types';

const SOURCE = 'staging/src/k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go';
export const CRD_STRATEGY_SOURCE =
  'staging/src/k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition/strategy.go';

/**
 * apiextensions/v1 defaults.go SetDefaults_CustomResourceDefinitionSpec, as the decoder applies
 * them: singular is the lower-cased kind, listKind is kind + "List", conversion is None.
 */
export function setCustomResourceDefinitionDefaults(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (!spec || typeof spec !== 'object') return;
  const names = (spec.names ??= {} as CustomResourceDefinitionNames);
  if (!names.singular && names.kind) names.singular = names.kind.toLowerCase();
  if (!names.listKind && names.kind) names.listKind = `${names.kind}List`;
  spec.conversion ??= { strategy: 'None' };
}

/** ValidateCustomResourceDefinitionNames (spec.names and status.acceptedNames). */
function validateNames(names: CustomResourceDefinitionNames, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const check = (value: string | undefined, field: string, prefix = '', lower = false) => {
    if (!value) return;
    const e = dns1035(lower ? value.toLowerCase() : value);
    if (e) errs.push({ field: `${path}.${field}`, type: 'Invalid', value, detail: prefix + e });
  };
  check(names.plural, 'plural');
  check(names.singular, 'singular');
  check(names.kind, 'kind', 'may have mixed case, but should otherwise match: ', true);
  check(names.listKind, 'listKind', 'may have mixed case, but should otherwise match: ', true);
  (names.shortNames ?? []).forEach((s, i) => check(s, `shortNames[${i}]`));
  if (names.kind && names.kind === names.listKind)
    errs.push({
      field: `${path}.listKind`,
      type: 'Invalid',
      value: names.listKind,
      detail: 'kind and listKind may not be the same',
    });
  (names.categories ?? []).forEach((c, i) => check(c, `categories[${i}]`));
  return errs;
}

/**
 * ValidateCustomResourceDefinition (validation.go), the parts modelled: the name is
 * `<plural>.<group>`; the group a DNS subdomain with a dot; the scope Cluster or Namespaced;
 * every version a DNS-1035 label with a schema (required in v1), structural (validateStructural),
 * names unique, exactly one storage version; the names required and well formed; printer columns
 * with a name, a type and a JSONPath. Conversion webhooks and CEL rules are not served.
 */
export function validateCustomResourceDefinition(crd: CustomResourceDefinition, release: Release): FieldError[] {
  const errs: FieldError[] = [];
  const spec = crd.spec ?? ({} as CustomResourceDefinition['spec']);
  const names = spec.names ?? ({} as CustomResourceDefinitionNames);
  const name = crd.metadata.name ?? '';
  const nameErrs = [
    dns1123Subdomain(name),
    name !== `${names.plural}.${spec.group}` ? 'must be spec.names.plural+"."+spec.group' : undefined,
  ].filter((e): e is string => e !== undefined);
  for (const detail of nameErrs) errs.push({ field: 'metadata.name', type: 'Invalid', value: name, detail });
  errs.push(...validateQualifiedFinalizers(crd.metadata.finalizers ?? []));
  if (!spec.group) errs.push({ field: 'spec.group', type: 'Required value', detail: '' });
  else {
    const e = dns1123Subdomain(spec.group);
    if (e) errs.push({ field: 'spec.group', type: 'Invalid', value: spec.group, detail: e });
    else if (spec.group.split('.').length < 2)
      errs.push({
        field: 'spec.group',
        type: 'Invalid',
        value: spec.group,
        detail: 'should be a domain with at least one dot',
      });
  }
  if (!spec.scope) errs.push({ field: 'spec.scope', type: 'Required value', detail: '' });
  else if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced')
    errs.push({
      field: 'spec.scope',
      type: 'Unsupported value',
      value: spec.scope,
      detail: 'supported values: "Cluster", "Namespaced"',
    });
  const versions = Array.isArray(spec.versions) ? spec.versions : [];
  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((v, i) => {
    const path = `spec.versions[${i}]`;
    if (v.storage) storage++;
    if (seen.has(v.name)) unique = false;
    seen.add(v.name);
    const e = dns1035(v.name ?? '');
    if (e) errs.push({ field: `${path}.name`, type: 'Invalid', value: v.name, detail: e });
    const schema = v.schema?.openAPIV3Schema;
    if (!schema)
      errs.push({ field: `${path}.schema.openAPIV3Schema`, type: 'Required value', detail: 'schemas are required' });
    else
      errs.push(
        ...validateCRDSchema(schema as JSONSchemaProps, `${path}.schema.openAPIV3Schema`, {
          statusSubresource: v.subresources?.status !== undefined,
          release,
        }),
      );
    (v.additionalPrinterColumns ?? []).forEach((c, j) =>
      errs.push(...validateColumn(c, `${path}.additionalPrinterColumns[${j}]`)),
    );
  });
  if (!unique)
    errs.push({
      field: 'spec.versions',
      type: 'Invalid',
      value: versions,
      printedValue: goVersions(versions),
      detail: 'must contain unique version names',
    });
  if (storage !== 1)
    errs.push({
      field: 'spec.versions',
      type: 'Invalid',
      value: versions,
      printedValue: goVersions(versions),
      detail: 'must have exactly one version marked as storage version',
    });
  if (!names.plural) errs.push({ field: 'spec.names.plural', type: 'Required value', detail: '' });
  if (!names.singular) errs.push({ field: 'spec.names.singular', type: 'Required value', detail: '' });
  if (!names.kind) errs.push({ field: 'spec.names.kind', type: 'Required value', detail: '' });
  if (!names.listKind) errs.push({ field: 'spec.names.listKind', type: 'Required value', detail: '' });
  errs.push(...validateNames(names, 'spec.names'));
  if (
    spec.conversion?.strategy !== undefined &&
    spec.conversion.strategy !== 'None' &&
    spec.conversion.strategy !== 'Webhook'
  ) {
    errs.push({
      field: 'spec.conversion.strategy',
      type: 'Unsupported value',
      value: spec.conversion.strategy,
      detail: 'supported values: "None", "Webhook"',
    });
  }
  return errs;
}

/**
 * How field.Invalid prints spec.versions: Go's %#v of the internal []CustomResourceDefinitionVersion,
 * here with the fields that say which version is which and the pointer fields (printed upstream as
 * addresses, which differ on every run) left out as `…`.
 */
function goVersions(versions: readonly CustomResourceDefinition['spec']['versions'][number][]): string {
  const one = (v: CustomResourceDefinition['spec']['versions'][number]) =>
    `apiextensions.CustomResourceDefinitionVersion{Name:${JSON.stringify(v.name ?? '')}, Served:${v.served === true}, Storage:${v.storage === true}, …}`;
  return `[]apiextensions.CustomResourceDefinitionVersion{${versions.map(one).join(', ')}}`;
}

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'name', 'password'];

/** ValidateCustomResourceColumnDefinition. */
function validateColumn(
  c: { name?: string; type?: string; format?: string; jsonPath?: string },
  path: string,
): FieldError[] {
  const errs: FieldError[] = [];
  if (!c.name) errs.push({ field: `${path}.name`, type: 'Required value', detail: '' });
  if (!c.type)
    errs.push({ field: `${path}.type`, type: 'Required value', detail: `must be one of ${COLUMN_TYPES.join(',')}` });
  else if (!COLUMN_TYPES.includes(c.type))
    errs.push({
      field: `${path}.type`,
      type: 'Invalid',
      value: c.type,
      detail: `must be one of ${COLUMN_TYPES.join(',')}`,
    });
  if (c.format && !COLUMN_FORMATS.includes(c.format))
    errs.push({
      field: `${path}.format`,
      type: 'Invalid',
      value: c.format,
      detail: `must be one of ${COLUMN_FORMATS.join(',')}`,
    });
  if (!c.jsonPath) errs.push({ field: `${path}.JSONPath`, type: 'Required value', detail: '' });
  return errs;
}

/** PrepareForCreate/PrepareForUpdate: the storage version joins status.storedVersions. */
function recordStoredVersion(crd: CustomResourceDefinition): void {
  const v = (crd.spec?.versions ?? []).find((x) => x.storage);
  if (!v) return;
  const stored = crd.status?.storedVersions ?? [];
  if (!stored.includes(v.name)) crd.status = { ...crd.status, storedVersions: [...stored, v.name] };
}

/**
 * customresourcedefinition/strategy.go: cluster-scoped, stored under
 * /registry/apiextensions.k8s.io/customresourcedefinitions; a create starts with an empty status
 * (but for storedVersions) and generation 1; an update keeps the status and counts spec changes;
 * both need a resourceVersion (AllowUnconditionalUpdate false). The status strategy keeps the
 * spec, and — ResetObjectMetaForStatus being called with the new metadata twice — takes the
 * metadata as sent: this is how the CRD finalizer's UpdateStatus removes its finalizer.
 */
export function customResourceDefinitionStrategies(release: Release): {
  main: Strategy<CustomResourceDefinition>;
  status: Strategy<CustomResourceDefinition>;
} {
  const base = {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    resource: 'customresourcedefinitions',
    etcdPrefix: 'apiextensions.k8s.io/customresourcedefinitions',
    namespaced: false,
    allowUnconditionalUpdate: false,
    validate: (crd: CustomResourceDefinition) => validateCustomResourceDefinition(crd, release),
  };
  const main: Strategy<CustomResourceDefinition> = {
    ...base,
    prepareForCreate(crd, now) {
      // The decoder's defaulting (SetDefaults_CustomResourceDefinition) before the strategy.
      setCustomResourceDefinitionDefaults(crd);
      crd.status = {};
      crd.metadata.generation = 1;
      crd.metadata.creationTimestamp = toTime(now);
      recordStoredVersion(crd);
    },
    prepareForUpdate(next, old) {
      setCustomResourceDefinitionDefaults(next);
      if (old.status !== undefined) next.status = old.status;
      else delete next.status;
      if (!jsonEqual(next.spec, old.spec)) next.metadata.generation = (old.metadata.generation ?? 0) + 1;
      recordStoredVersion(next);
    },
    validateUpdate: (next, old) => [
      ...validateObjectMetaUpdate(next.metadata, old.metadata, validateQualifiedFinalizers),
      ...validateCustomResourceDefinition(next, release),
    ],
  };
  const status: Strategy<CustomResourceDefinition> = {
    ...base,
    prepareForCreate: () => undefined,
    prepareForUpdate(next, old) {
      next.spec = old.spec;
    },
    validateUpdate: (next, old) => [
      ...validateObjectMetaUpdate(next.metadata, old.metadata, validateQualifiedFinalizers),
      ...validateNames(next.status?.acceptedNames ?? ({} as CustomResourceDefinitionNames), 'status.acceptedNames'),
    ],
  };
  return { main, status };
}

export { SOURCE as CRD_VALIDATION_SOURCE };
