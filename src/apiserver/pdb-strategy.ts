import type { FieldError } from '../apimachinery/errors';
import { genericStrategy } from './generic-strategy';
import { jsonEqual } from '../apimachinery/object';
import type { Strategy } from './strategy';
import type { PodDisruptionBudget } from '../apimachinery/types';
import type { Release } from '../foundation/release';

/** policy/v1 PodDisruptionBudgetSpec.unhealthyPodEvictionPolicy values (validation.go supportedUnhealthyPodEvictionPolicies). */
const EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** An IntOrString as the API carries it: a whole number, or a string such as "50%". */
export type IntOrPercent = number | string;

/**
 * pkg/apis/apps/validation ValidatePositiveIntOrPercent and IsNotMoreThan100Percent, in their
 * words: a number must not be negative, a string must be a percentage of at most 100.
 */
function intOrPercentErrors(value: IntOrPercent, field: string): FieldError[] {
  if (typeof value === 'number')
    return value < 0 ? [{ type: 'Invalid', field, value, detail: 'must be greater than or equal to 0' }] : [];
  if (!/^[0-9]+%$/.test(value)) {
    return [
      {
        type: 'Invalid',
        field,
        value,
        detail:
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      },
    ];
  }
  return Number(value.slice(0, -1)) > 100
    ? [{ type: 'Invalid', field, value, detail: 'must not be greater than 100%' }]
    : [];
}

/** pkg/apis/policy/validation ValidatePodDisruptionBudgetSpec (the parts the simulation reads). */
export function validatePodDisruptionBudgetSpec(pdb: PodDisruptionBudget): FieldError[] {
  const spec = pdb.spec ?? {};
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push({
      type: 'Invalid',
      field: 'spec',
      value: spec,
      detail: 'minAvailable and maxUnavailable cannot be both set',
    });
  }
  if (spec.minAvailable !== undefined) errs.push(...intOrPercentErrors(spec.minAvailable, 'spec.minAvailable'));
  if (spec.maxUnavailable !== undefined) errs.push(...intOrPercentErrors(spec.maxUnavailable, 'spec.maxUnavailable'));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !EVICTION_POLICIES.includes(policy)) {
    errs.push({
      type: 'Unsupported value',
      field: 'spec.unhealthyPodEvictionPolicy',
      value: policy,
      detail: `supported values: ${EVICTION_POLICIES.map((p) => `"${p}"`).join(', ')}`,
    });
  }
  return errs;
}

/**
 * pkg/registry/policy/poddisruptionbudget/strategy.go: a new budget starts with an empty status
 * (PrepareForCreate), an update keeps the stored status and moves the generation only with the
 * spec (PrepareForUpdate), and the status subresource keeps the stored spec. dropDisabledFields:
 * unhealthyPodEvictionPolicy is dropped while PDBUnhealthyPodEvictionPolicy is off (1.26's
 * default), unless the stored budget already uses it.
 */
export function podDisruptionBudgetStrategies(release: Release): {
  main: Strategy<PodDisruptionBudget>;
  status: Strategy<PodDisruptionBudget>;
} {
  const base = genericStrategy<PodDisruptionBudget>({
    kind: 'PodDisruptionBudget',
    apiVersion: 'policy/v1',
    resource: 'poddisruptionbudgets',
    namespaced: true,
  });
  const dropDisabled = (next: PodDisruptionBudget, old: PodDisruptionBudget | undefined) => {
    if (release.enabled('PDBUnhealthyPodEvictionPolicy') || old?.spec?.unhealthyPodEvictionPolicy !== undefined) return;
    if (next.spec) delete next.spec.unhealthyPodEvictionPolicy;
  };
  const main: Strategy<PodDisruptionBudget> = {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      obj.status = { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
      dropDisabled(obj, undefined);
    },
    validate: (obj) => [...base.validate(obj), ...validatePodDisruptionBudgetSpec(obj)],
    prepareForUpdate(next, old) {
      next.status = old.status;
      dropDisabled(next, old);
      if (!jsonEqual(next.spec, old.spec)) next.metadata.generation = (old.metadata.generation ?? 0) + 1;
      else next.metadata.generation = old.metadata.generation;
    },
    validateUpdate: (next, old) => [...base.validateUpdate(next, old), ...validatePodDisruptionBudgetSpec(next)],
  };
  const status: Strategy<PodDisruptionBudget> = {
    ...main,
    prepareForUpdate(next, old) {
      next.spec = old.spec;
      next.metadata.generation = old.metadata.generation;
    },
    validateUpdate: (next, old) => base.validateUpdate(next, old),
  };
  return { main, status };
}
