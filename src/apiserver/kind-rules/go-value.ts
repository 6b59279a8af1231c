/**
 * How field.Error prints a value it cannot print simply (apimachinery/pkg/util/validation/field
 * errors.go ErrorBody: `%#v`): Go syntax of the internal type. Only the shapes the rules here
 * report.
 */

/** `map[string]string{"app":"web"}`; a nil map `map[string]string(nil)`. */
export function goStringMap(m: Readonly<Record<string, string>> | undefined): string {
  if (m === undefined || m === null) return 'map[string]string(nil)';
  // %#v of a map sorts its keys.
  return `map[string]string{${Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`)
    .join(', ')}}`;
}

/**
 * `apps.DeploymentStrategy{Type:"Rolling", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}`:
 * a struct of a string type and one pointer, the pointer printed as nil or as an address (an
 * address changes with every run upstream; here a fixed stand-in).
 */
export function goStrategy(
  struct: string,
  type: string | undefined,
  pointerField: string,
  pointerType: string,
  set: boolean,
): string {
  return `${struct}{Type:${JSON.stringify(type ?? '')}, ${pointerField}:(*${pointerType})(${set ? '0xc000000000' : 'nil'})}`;
}
