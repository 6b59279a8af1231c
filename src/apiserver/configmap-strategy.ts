import type { FieldError } from '../apimachinery/errors';
import { genericStrategy } from './generic-strategy';
import { jsonEqual } from '../apimachinery/object';
import type { Strategy } from './strategy';
import type { ConfigMap } from '../apimachinery/types';

const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

/**
 * apimachinery/pkg/util/validation IsConfigMapKey, as ValidateConfigMap and ValidateSecret check
 * every key of `data` (and `binaryData`): at most 253 characters of letters, digits, '-', '_' and
 * '.', and not '.', '..' or anything starting with '..' (it would name a directory when mounted).
 * Keys are checked in sorted order, so the errors repeat (upstream walks a Go map).
 */
export function validateConfigKeys(bag: Record<string, unknown> | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const key of Object.keys(bag ?? {}).sort()) {
    const invalid = (detail: string) => errs.push({ field: `${path}[${key}]`, type: 'Invalid', value: key, detail });
    if (Buffer.byteLength(key) > 253) invalid('must be no more than 253 characters');
    if (!CONFIG_KEY.test(key))
      invalid(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      );
    if (key === '.') invalid("must not be '.'");
    else if (key === '..') invalid("must not be '..'");
    else if (key.startsWith('..')) invalid("must not start with '..'");
  }
  return errs;
}

/**
 * ValidateConfigMapUpdate and ValidateSecretUpdate: once stored with `immutable: true`, an object
 * cannot become mutable again and its contents (`fields`) cannot change (KEP-1412, GA in v1.21).
 */
export function validateImmutableContents<T extends { immutable?: boolean }>(
  next: T,
  old: T,
  fields: readonly (keyof T & string)[],
): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (next.immutable !== true)
    errs.push({ field: 'immutable', type: 'Forbidden', detail: 'field is immutable when `immutable` is set' });
  for (const f of fields) {
    if (!jsonEqual(next[f] ?? {}, old[f] ?? {}))
      errs.push({ field: f, type: 'Forbidden', detail: 'field is immutable when `immutable` is set' });
  }
  return errs;
}

/**
 * pkg/registry/core/configmap/strategy.go with pkg/apis/core/validation ValidateConfigMap(Update):
 * keys of `data` and `binaryData` are config keys, and no key is in both bags.
 */
function validateConfigMap(cm: ConfigMap): FieldError[] {
  const errs = [...validateConfigKeys(cm.data, 'data'), ...validateConfigKeys(cm.binaryData, 'binaryData')];
  for (const key of Object.keys(cm.data ?? {}).sort()) {
    if (cm.binaryData && key in cm.binaryData)
      errs.push({
        field: `data[${key}]`,
        type: 'Invalid',
        value: key,
        detail: 'duplicate of key present in binaryData',
      });
  }
  return errs;
}

export function configMapStrategy(): Strategy<ConfigMap> {
  const base = genericStrategy<ConfigMap>({
    kind: 'ConfigMap',
    apiVersion: 'v1',
    resource: 'configmaps',
    namespaced: true,
    generation: false,
  });
  return {
    ...base,
    validate: (cm) => [...base.validate(cm), ...validateConfigMap(cm)],
    validateUpdate: (next, old) => [
      ...base.validateUpdate(next, old),
      ...validateImmutableContents(next, old, ['data', 'binaryData']),
      ...validateConfigMap(next),
    ],
  };
}
