import type { FieldError } from '../../apimachinery/errors';
import { labelSelectorAsSelector, SelectorError } from '../../apimachinery/selectors';
import type {
  DaemonSet,
  Deployment,
  LabelSelector,
  PodTemplateSpec,
  ReplicaSet,
  StatefulSet,
} from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import { goJson } from '../../apimachinery/errors';
import { goStrategy, goStringMap, intOrString } from './go-value';
import type { KindRules } from './index';
import { setContainerPortDefaults, validatePodSpecRules } from './pod-spec';

/** ValidateNonnegativeField. */
function nonNegative(value: number | undefined, field: string): FieldError[] {
  return value !== undefined && value < 0
    ? [{ field, type: 'Invalid', value, detail: 'must be greater than or equal to 0' }]
    : [];
}

/**
 * A *metav1.LabelSelector dereferenced (the value an `empty selector` error prints): %#v up to
 * 1.33; from 1.34 its JSON (a v1 type: json tags, empty fields omitted).
 */
function goSelector(s: LabelSelector, release: Release): string {
  if (release.has('FieldErrorValuesAsJson')) {
    const json: Record<string, unknown> = {};
    if (Object.keys(s.matchLabels ?? {}).length > 0)
      json.matchLabels = Object.fromEntries(
        Object.keys(s.matchLabels ?? {})
          .sort()
          .map((k) => [k, s.matchLabels?.[k]]),
      );
    if ((s.matchExpressions ?? []).length > 0) json.matchExpressions = s.matchExpressions;
    return goJson(json);
  }
  const labels = s.matchLabels ? goStringMap(s.matchLabels, release) : 'map[string]string(nil)';
  return `v1.LabelSelector{MatchLabels:${labels}, MatchExpressions:[]v1.LabelSelectorRequirement(${s.matchExpressions ? '{}' : 'nil'})}`;
}

/**
 * The selector checks of ValidateDeploymentSpec, ValidateReplicaSetSpec, ValidateStatefulSetSpec
 * (required; not empty, `empty selector is invalid for KIND`) and the template's labels it must
 * select (ValidatePodTemplateSpecForReplicaSet / ForStatefulSet: a selector that is not empty and
 * does not match them is `spec.template.metadata.labels: Invalid value: map[string]string{…}:
 * \`selector\` does not match template \`labels\``; a missing selector, LabelSelectorAsSelector's
 * Nothing, matches no labels either).
 */
function validateSelector(
  selector: LabelSelector | undefined,
  template: PodTemplateSpec | undefined,
  emptyDetail: string,
  required: boolean,
  release: Release,
): FieldError[] {
  const errs: FieldError[] = [];
  if (selector === undefined || selector === null) {
    if (required) errs.push({ field: 'spec.selector', type: 'Required value', detail: '' });
  } else if (Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push({
      field: 'spec.selector',
      type: 'Invalid',
      printedValue: goSelector(selector, release),
      detail: emptyDetail,
    });
  }
  let matches: boolean;
  try {
    matches = selector
      ? labelSelectorAsSelector(selector).empty ||
        labelSelectorAsSelector(selector).matches(template?.metadata?.labels ?? {})
      : false;
  } catch (e) {
    if (!(e instanceof SelectorError)) throw e;
    errs.push({
      field: 'spec.selector',
      type: 'Invalid',
      printedValue: goSelector(selector!, release),
      detail: 'invalid label selector',
    });
    return errs;
  }
  if (!matches)
    errs.push({
      field: 'spec.template.metadata.labels',
      type: 'Invalid',
      printedValue: goStringMap(template?.metadata?.labels, release),
      detail: '`selector` does not match template `labels`',
    });
  return errs;
}

/** The template of a controller that restarts its pods: restartPolicy Always only (ValidatePodTemplateSpecForReplicaSet, ValidateDaemonSetSpec, ValidateStatefulSetSpec). */
function alwaysRestart(template: PodTemplateSpec | undefined): FieldError[] {
  const restart = template?.spec?.restartPolicy;
  return restart !== undefined && restart !== 'Always'
    ? [
        {
          field: 'spec.template.spec.restartPolicy',
          type: 'Unsupported value',
          value: restart,
          detail: 'supported values: "Always"',
        },
      ]
    : [];
}

function templateSpec(template: PodTemplateSpec | undefined, release: Release): FieldError[] {
  return validatePodSpecRules(template?.spec, 'spec.template.spec', release);
}

/** pkg/apis/apps/validation ValidateDeploymentSpec with ValidateDeploymentStrategy and ValidateRollingUpdateDeployment. */
function validateDeployment(d: Deployment, release: Release): FieldError[] {
  const spec = d.spec;
  if (!spec) return [];
  const errs = [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...validateSelector(spec.selector, spec.template, 'empty selector is invalid for deployment', true, release),
    ...templateSpec(spec.template, release),
    ...alwaysRestart(spec.template),
  ];
  const strategy = spec.strategy ?? {};
  if (strategy.type === 'Recreate') {
    if (strategy.rollingUpdate)
      errs.push({
        field: 'spec.strategy.rollingUpdate',
        type: 'Forbidden',
        detail: "may not be specified when strategy `type` is 'Recreate'",
      });
  } else if (strategy.type === 'RollingUpdate') {
    const ru = strategy.rollingUpdate;
    if (ru && intOrPercent(ru.maxUnavailable) === 0 && intOrPercent(ru.maxSurge) === 0) {
      errs.push({
        field: 'spec.strategy.rollingUpdate.maxUnavailable',
        type: 'Invalid',
        value: ru.maxUnavailable,
        detail: 'may not be 0 when `maxSurge` is 0',
      });
    }
  } else {
    // NotSupported(fldPath, strategy, …): the value printed is the whole strategy struct.
    errs.push({
      field: 'spec.strategy',
      type: 'Unsupported value',
      printedValue: goStrategy(
        'apps.DeploymentStrategy',
        strategy.type,
        'RollingUpdate',
        'apps.RollingUpdateDeployment',
        strategy.rollingUpdate && [
          ['MaxUnavailable', intOrString(strategy.rollingUpdate.maxUnavailable)],
          ['MaxSurge', intOrString(strategy.rollingUpdate.maxSurge)],
        ],
        release,
      ),
      detail: 'supported values: "Recreate", "RollingUpdate"',
    });
  }
  errs.push(
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'),
  );
  if (spec.progressDeadlineSeconds !== undefined) {
    errs.push(...nonNegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0))
      errs.push({
        field: 'spec.progressDeadlineSeconds',
        type: 'Invalid',
        value: spec.progressDeadlineSeconds,
        detail: 'must be greater than minReadySeconds',
      });
  }
  return errs;
}

/** getIntOrPercentValue: an int, or the number of a percentage. */
function intOrPercent(v: number | string | undefined): number | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'number' ? v : Number.parseInt(v, 10);
}

/** ValidateReplicaSetSpec. */
function validateReplicaSet(rs: ReplicaSet, release: Release): FieldError[] {
  const spec = rs.spec;
  if (!spec) return [];
  return [
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
    ...validateSelector(spec.selector, spec.template, 'empty selector is invalid for deployment', true, release),
    ...templateSpec(spec.template, release),
    ...alwaysRestart(spec.template),
  ];
}

/**
 * ValidateStatefulSetSpec: podManagementPolicy and updateStrategy are `Invalid … must be 'A' or
 * 'B'` (not NotSupported), the selector required and not empty, the template selected and
 * restarting Always.
 */
function validateStatefulSet(set: StatefulSet, release: Release): FieldError[] {
  const spec = set.spec;
  if (!spec) return [];
  const errs: FieldError[] = [];
  const policy = spec.podManagementPolicy;
  if (policy !== undefined && policy !== 'OrderedReady' && policy !== 'Parallel')
    errs.push({
      field: 'spec.podManagementPolicy',
      type: 'Invalid',
      value: policy,
      detail: "must be 'OrderedReady' or 'Parallel'",
    });
  const type = spec.updateStrategy?.type;
  if (type !== undefined && type !== 'RollingUpdate' && type !== 'OnDelete') {
    const ru = spec.updateStrategy?.rollingUpdate;
    errs.push({
      field: 'spec.updateStrategy',
      type: 'Invalid',
      printedValue: goStrategy(
        'apps.StatefulSetUpdateStrategy',
        type,
        'RollingUpdate',
        'apps.RollingUpdateStatefulSetStrategy',
        ru && [
          ['Partition', ru.partition ?? 0],
          ['MaxUnavailable', ru.maxUnavailable ?? null],
        ],
        release,
      ),
      detail: "must be 'RollingUpdate' or 'OnDelete'",
    });
  }
  // ValidatePersistentVolumeClaimRetentionPolicy (P21): each of whenDeleted and whenScaled is Retain or Delete.
  const retention = spec.persistentVolumeClaimRetentionPolicy;
  for (const when of ['whenDeleted', 'whenScaled'] as const) {
    const value = retention?.[when];
    if (retention && value !== 'Retain' && value !== 'Delete')
      errs.push({
        field: `spec.persistentVolumeClaimRetentionPolicy.${when}`,
        type: 'Unsupported value',
        value: value ?? '',
        detail: 'supported values: "Retain", "Delete"',
      });
  }
  errs.push(
    ...nonNegative(spec.replicas, 'spec.replicas'),
    ...validateSelector(spec.selector, spec.template, 'empty selector is not valid for statefulset.', true, release),
    ...templateSpec(spec.template, release),
    ...alwaysRestart(spec.template),
  );
  return errs;
}

/**
 * ValidateDaemonSetSpec: the template's labels selected by the selector (a missing selector
 * matches nothing), the selector not empty, restartPolicy Always, and
 * ValidateDaemonSetUpdateStrategy (NotSupported with the whole strategy struct printed).
 */
function validateDaemonSet(ds: DaemonSet, release: Release): FieldError[] {
  const spec = ds.spec;
  if (!spec) return [];
  const errs: FieldError[] = [];
  const selector = spec.selector;
  let matches = false;
  try {
    matches =
      selector !== undefined &&
      selector !== null &&
      labelSelectorAsSelector(selector).matches(spec.template?.metadata?.labels ?? {});
  } catch (e) {
    if (!(e instanceof SelectorError)) throw e;
  }
  if (!matches)
    errs.push({
      field: 'spec.template.metadata.labels',
      type: 'Invalid',
      printedValue: goStringMap(spec.template?.metadata?.labels, release),
      detail: '`selector` does not match template `labels`',
    });
  if (selector && Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length === 0) {
    errs.push({
      field: 'spec.selector',
      type: 'Invalid',
      printedValue: goSelector(selector, release),
      detail: 'empty selector is invalid for daemonset',
    });
  }
  errs.push(
    ...templateSpec(spec.template, release),
    ...alwaysRestart(spec.template),
    ...nonNegative(spec.minReadySeconds, 'spec.minReadySeconds'),
  );
  const strategy = spec.updateStrategy ?? {};
  if (strategy.type !== undefined && strategy.type !== 'RollingUpdate' && strategy.type !== 'OnDelete') {
    errs.push({
      field: 'spec.updateStrategy',
      type: 'Unsupported value',
      printedValue: goStrategy(
        'apps.DaemonSetUpdateStrategy',
        strategy.type,
        'RollingUpdate',
        'apps.RollingUpdateDaemonSet',
        strategy.rollingUpdate && [
          ['MaxUnavailable', intOrString(strategy.rollingUpdate.maxUnavailable)],
          ['MaxSurge', intOrString(strategy.rollingUpdate.maxSurge)],
        ],
        release,
      ),
      detail: 'supported values: "RollingUpdate", "OnDelete"',
    });
  }
  errs.push(...nonNegative(spec.revisionHistoryLimit, 'spec.revisionHistoryLimit'));
  return errs;
}

const templateDefaults = <T extends { spec?: { template?: PodTemplateSpec } }>(obj: T) =>
  setContainerPortDefaults(obj.spec?.template?.spec);

/** The apps/v1 kinds' rules, each plugged into its kind module (kinds/apps.ts). */
export const deploymentRules: KindRules<Deployment> = { defaults: templateDefaults, validate: validateDeployment };
export const replicaSetRules: KindRules<ReplicaSet> = { defaults: templateDefaults, validate: validateReplicaSet };
export const statefulSetRules: KindRules<StatefulSet> = { defaults: templateDefaults, validate: validateStatefulSet };
export const daemonSetRules: KindRules<DaemonSet> = { defaults: templateDefaults, validate: validateDaemonSet };
