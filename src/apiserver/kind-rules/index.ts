import type { FieldError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import type { Release } from '../../foundation/release';

/**
 * R242 — the validation and defaulting of each built-in kind that its registry strategy's own
 * code (pod-strategy.ts, workload-strategy.ts, …) does not already do: upstream's
 * pkg/apis/{group}/validation ValidateX and pkg/apis/{group}/v1/defaults.go SetDefaults_X, with
 * their field paths and messages, release by release where they changed.
 *
 * A kind's rules live in its group's file here (apps.ts, batch.ts, core.ts, discovery.ts) and
 * are plugged into its kind module (kinds/, the kind's `rules`), in ONE place. The Store runs
 * them for every object it writes, whoever writes it (an HTTP body, a scenario's doc string, a
 * controller):
 *
 * - `defaults` when an object is decoded (create, and every update: decoding defaults a PUT or a
 *   patched body too), before the strategy's PrepareForCreate / PrepareForUpdate;
 * - `validate` after the strategy's own validation on create and on an update of the main
 *   resource (ValidateXUpdate re-validates the spec); a status update is not re-validated here;
 * - `validateUpdate` after it on such an update: what may not change from the stored object.
 */
export interface KindRules<T extends KubeObject = KubeObject> {
  defaults?(obj: T, release: Release): void;
  /** On an update `old` is the stored object (for upstream's ratcheting: a value it already had stays accepted). */
  validate?(obj: T, release: Release, old?: T): FieldError[];
  /** What only an update is checked for against the stored object (ValidateXUpdate), after `validate`. */
  validateUpdate?(next: T, old: T, release: Release): FieldError[];
}
