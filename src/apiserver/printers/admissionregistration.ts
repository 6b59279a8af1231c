import type {
  MutatingAdmissionPolicy,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../apimachinery/types';
import type { KubeObject } from '../../apimachinery/object';
import { AGE, age, type Cell, column, count, NAME, type Printer } from './printer';

const WEBHOOKS = count('Webhooks', 'How many webhooks the configuration holds.');

// printValidatingWebhook / printMutatingWebhook: the number of webhooks.
export const validatingWebhookConfigurationPrinter: Printer = {
  columns: [NAME, WEBHOOKS, AGE],
  cells: webhookConfigurationCells,
};

export const mutatingWebhookConfigurationPrinter: Printer = {
  columns: [NAME, WEBHOOKS, AGE],
  cells: webhookConfigurationCells,
};

// printValidatingAdmissionPolicy and printMutatingAdmissionPolicy: Name, how many expressions the
// policy has, the paramKind as apiVersion/kind (`<unset>` without one), Age.
function admissionPolicyPrinter(what: 'Validations' | 'Mutations', description: string): Printer {
  return {
    columns: [
      NAME,
      count(what, description),
      column('ParamKind', 'The kind of the resources that parameterize the policy (apiVersion/kind).'),
      AGE,
    ],
    cells: (obj, now) => {
      const spec = (obj as ValidatingAdmissionPolicy | MutatingAdmissionPolicy).spec;
      const expressions =
        what === 'Validations'
          ? ((spec as ValidatingAdmissionPolicy['spec'])?.validations ?? [])
          : ((spec as MutatingAdmissionPolicy['spec'])?.mutations ?? []);
      const paramKind = spec?.paramKind ? `${spec.paramKind.apiVersion ?? ''}/${spec.paramKind.kind ?? ''}` : '<unset>';
      return [obj.metadata.name ?? '', expressions.length, paramKind, age(obj.metadata.creationTimestamp, now)];
    },
  };
}

export const validatingAdmissionPolicyPrinter = admissionPolicyPrinter(
  'Validations',
  'How many validation expressions the policy has.',
);

export const mutatingAdmissionPolicyPrinter = admissionPolicyPrinter('Mutations', 'How many mutations the policy has.');

/** printValidatingAdmissionPolicyBinding, and printMutatingAdmissionPolicyBinding with the same columns and cells. */
export const validatingAdmissionPolicyBindingPrinter: Printer = {
  columns: [
    NAME,
    column('PolicyName', 'The policy the binding applies.'),
    column('ParamRef', 'The parameter resource the binding gives the policy.'),
    AGE,
  ],
  cells: (obj, now) => {
    const b = obj as ValidatingAdmissionPolicyBinding;
    return [
      b.metadata.name ?? '',
      b.spec?.policyName ?? '',
      paramRefCell(b.spec?.paramRef),
      age(b.metadata.creationTimestamp, now),
    ];
  },
};

function webhookConfigurationCells(obj: KubeObject, now: number): Cell[] {
  return [
    obj.metadata.name ?? '',
    ((obj as { webhooks?: unknown[] }).webhooks ?? []).length,
    age(obj.metadata.creationTimestamp, now),
  ];
}

/**
 * printValidatingAdmissionPolicyBinding's ParamRef: NAMESPACE/NAME, the name under a `*` namespace without one
 * (the printer cannot tell a cluster-scoped param), a selector as its generated protobuf String()
 * prints it, else `<unset>`.
 */
function paramRefCell(ref: NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef']): string {
  if (ref === undefined) return '<unset>';
  if (ref.name) return `${ref.namespace || '*'}/${ref.name}`;
  if (ref.selector === undefined) return '<unset>';
  const labels = ref.selector.matchLabels ?? {};
  const matchLabels = Object.keys(labels)
    .sort()
    .map((k) => `${k}: ${labels[k]},`)
    .join('');
  const expressions = (ref.selector.matchExpressions ?? [])
    .map(
      (e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${matchLabels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
