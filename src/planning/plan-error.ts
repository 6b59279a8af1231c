/** A plan that names something it does not have, or is otherwise unusable. */
export class PlanError extends Error {}

/** Names for an error message: `"a", "b"`, or `none` when there are none. */
export function listNames(names: readonly string[], none = 'none'): string {
  return names.map((n) => `"${n}"`).join(', ') || none;
}
