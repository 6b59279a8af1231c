import type { ServerResponse } from 'node:http';
import { badRequest, unprocessable, type StatusError } from '../../apimachinery/errors';
import { decodeProblems } from '../../apiserver/strict-decoding';
import { DEFAULT_RELEASE } from '../../foundation/release';
import type { ServedResource } from '../../apiserver/resources';
import { decodeCustomResource } from '../../apiserver/apiextensions/custom-resource-schema';
import { clone } from '../../apimachinery/object';

/**
 * R111 — server-side field validation (KEP-2885, GA in v1.27; on by default in every modelled release):
 * `?fieldValidation=` on create, update and patch says what to do with fields the kind's schema
 * does not declare (handlers/create.go, update.go, patch.go with the strict decoders of
 * apimachinery's serializer/json and sigs.k8s.io/json):
 *
 * - `Strict`: 400 BadRequest `strict decoding error: unknown field "spec.foo"` (all of them, comma
 *   separated) — what kubectl ≥ 1.25 sends by default (`--validate=strict`); a patch is a 422
 *   Invalid on the field `patch` with that message (patch.go applyPatchToObject);
 * - `Warn` (the server's default): the request goes on, with one `Warning: 299 - "unknown field
 *   \"spec.foo\""` header per field, which kubectl prints;
 * - `Ignore`: unknown fields are dropped silently, as before.
 *
 * Any other value is a 422 naming the supported ones (ValidateFieldValidation).
 */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

const VALUES: readonly FieldValidation[] = ['Ignore', 'Strict', 'Warn'];

export function fieldValidationOf(value: string | undefined, optionsKind: string): FieldValidation {
  if (value === undefined || value === '') return 'Warn';
  if ((VALUES as readonly string[]).includes(value)) return value as FieldValidation;
  throw unprocessable(
    `${optionsKind}.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: ${JSON.stringify(value)}: supported values: "", "Ignore", "Strict", "Warn"`,
  );
}

/**
 * The fields of `value` its schema does not declare, as the strict decoder names them
 * (`spec.containers[0].foo`). Maps of `additionalProperties` and untyped parts accept any key.
 * Strategic merge patch directives (`$patch`, `$setElementOrder/…`, …) are not fields.
 */
export function unknownFields(
  r: ServedResource,
  value: unknown,
  drop = false,
  minor = DEFAULT_RELEASE.minor,
): string[] {
  // A custom resource: what its schema's pruning would drop (A6), found on a copy — the
  // apiserver's strategy prunes the object it stores, and a patch must not gain the defaults.
  if (r.custom) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
    return decodeCustomResource(
      clone(value) as Record<string, unknown>,
      r.custom.version.schema,
      r.custom.crd.preserveUnknownFields,
    );
  }
  return decodeProblems(r, value, minor, { drop }).strict.map((p) => JSON.parse(p.slice(p.indexOf('"'))) as string);
}

/**
 * Applies the directive to a decoded body (changed in place): a type error is refused whatever
 * the directive (the decode itself failed); unknown and duplicate fields throw for Strict, are
 * warnings for Warn; with Warn and Ignore the unknown fields are dropped, as decoding into the Go
 * types drops them. `duplicates`: the key paths the JSON body wrote twice (duplicateFields).
 */
export function validateFields(
  r: ServedResource,
  value: unknown,
  directive: FieldValidation,
  res: ServerResponse,
  refuse: (message: string) => StatusError = badRequest,
  options: { minor?: number; duplicates?: ReadonlySet<string> } = {},
): void {
  let problems: readonly string[];
  if (r.custom) {
    problems = unknownFields(r, value, directive !== 'Strict').map((f) => `unknown field ${JSON.stringify(f)}`);
  } else {
    const decoded = decodeProblems(r, value, options.minor ?? DEFAULT_RELEASE.minor, {
      drop: directive !== 'Strict',
      duplicates: directive === 'Ignore' ? undefined : options.duplicates,
    });
    if (decoded.typeError) throw refuse(decoded.typeError);
    problems = decoded.strict;
  }
  if (directive === 'Ignore') return;
  if (problems.length === 0) return;
  if (directive === 'Strict') throw refuse(`strict decoding error: ${problems.join(', ')}`);
  addWarnings(res, problems);
}

/** warning.AddWarning as the response writes it: one `Warning: 299 - "TEXT"` header each, after those already set. */
export function addWarnings(res: ServerResponse, texts: readonly string[]): void {
  const existing = res.getHeader('Warning');
  res.setHeader('Warning', [
    ...(Array.isArray(existing) ? existing : existing === undefined ? [] : [String(existing)]),
    ...texts.map((t) => `299 - ${JSON.stringify(t)}`),
  ]);
}
