import { goJson } from '../../apimachinery/errors';
import type { Release } from '../../foundation/release';

/**
 * How field.Error prints a value it cannot print simply (apimachinery/pkg/util/validation/field
 * errors.go ErrorBody): up to 1.33 Go syntax of the internal type (`%#v`); from 1.34 JSON, as
 * encoding/json writes it (kubernetes#132314, release.has('FieldErrorValuesAsJson')). Only the
 * shapes the rules here report.
 */

function sortedMap(m: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.keys(m)
      .sort()
      .map((k) => [k, m[k]]),
  );
}

/**
 * A map[string]string: `map[string]string{"app":"web"}` (a nil map `map[string]string(nil)`) up
 * to 1.33, `{"app":"web"}` (nil: `null`) from 1.34.
 */
export function goStringMap(m: Readonly<Record<string, string>> | undefined, release: Release): string {
  if (release.has('FieldErrorValuesAsJson')) return m === undefined || m === null ? 'null' : goJson(sortedMap(m));
  if (m === undefined || m === null) return 'map[string]string(nil)';
  // %#v of a map sorts its keys.
  return `map[string]string{${Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`)
    .join(', ')}}`;
}

/** The struct a strategy's pointer field points to, as its internal Go fields in declaration order. */
export type GoFields = readonly (readonly [name: string, value: unknown])[];

/**
 * A strategy struct of a string type and one pointer, e.g. the internal apps.DeploymentStrategy:
 * up to 1.33 `apps.DeploymentStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}`
 * (a pointer that is set prints as an address, which changes with every run upstream; here a
 * fixed stand-in); from 1.34 `{"Type":"Rolling","RollingUpdate":null}` (internal types have no
 * json tags: Go's field names; a set pointer prints its struct).
 */
export function goStrategy(
  struct: string,
  type: string | undefined,
  pointerField: string,
  pointerType: string,
  pointer: GoFields | undefined,
  release: Release,
): string {
  if (release.has('FieldErrorValuesAsJson'))
    return goJson({ Type: type ?? '', [pointerField]: pointer ? Object.fromEntries(pointer) : null });
  return `${struct}{Type:${JSON.stringify(type ?? '')}, ${pointerField}:(*${pointerType})(${pointer ? '0xc000000000' : 'nil'})}`;
}

/** An intstr.IntOrString as encoding/json writes it: the zero value (unset) is the int 0. */
export function intOrString(v: number | string | undefined): number | string {
  return v ?? 0;
}
