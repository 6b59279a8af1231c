/**
 * JSON values as Kubernetes' CEL sees them. An object reaches CEL through its unstructured form
 * (staging/src/k8s.io/apiserver/pkg/cel/value.go, UnstructuredToVal for schemaless data): a whole
 * JSON number is an `int` (int64), any other a `double`, strings, booleans, null, lists and maps
 * as they are. The evaluator takes an `int` as a bigint and a `double` as a number, so whole
 * numbers are turned into bigints here; everything else is passed through unchanged.
 */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toCel(v);
    return out;
  }
  return value;
}

/** The JSON form of a CEL result: bigints back to numbers (a messageExpression's or a variable's value). */
export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value)) return value.map(fromCel);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), fromCel(v)]));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromCel(v)]));
  }
  return value;
}
