import { labelSelectorAsSelector, type Labels } from '../../apimachinery/selectors';
import type { LabelSelectorSpec, RuleWithOperations } from '../../apimachinery/types';
import type { KubeObject } from '../../apimachinery/object';
import type { Webhook } from './configuration';

/** What admission knows about one request (admission.Attributes). */
export interface AdmissionAttributes {
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** The plural resource, e.g. `pods`. */
  readonly resource: string;
  /** `status`, `eviction`, `binding`, or '' for the resource itself. */
  readonly subresource: string;
  readonly namespaced: boolean;
  readonly namespace?: string;
  readonly name: string;
  readonly dryRun: boolean;
  /** The object's kind when it is not the resource's (pods/eviction takes a policy/v1 Eviction). */
  readonly objectKind?: { readonly group: string; readonly version: string; readonly kind: string };
}

/**
 * webhook/predicates/rules/rules.go Matcher.Matches: a rule matches when the scope, one of its
 * operations (`*` = all), groups, versions and resources match. A resource entry is `pods` (the
 * resource only), `pods/status` (that subresource), `pods/*` (the resource and every subresource), `*` (every resource, no
 * subresources), `*\/status` or `*\/*`.
 */
export function ruleMatches(rule: RuleWithOperations, a: AdmissionAttributes): boolean {
  const scope = rule.scope ?? '*';
  if (scope === 'Cluster' && a.namespaced) return false;
  if (scope === 'Namespaced' && !a.namespaced) return false;
  const ops = rule.operations ?? [];
  if (!ops.includes('*') && !ops.includes(a.operation)) return false;
  const any = (values: readonly string[] | undefined, v: string) => (values ?? []).some((x) => x === '*' || x === v);
  if (!any(rule.apiGroups, a.group) || !any(rule.apiVersions, a.version)) return false;
  return (rule.resources ?? []).some((entry) => {
    const [res, sub] = entry.includes('/') ? entry.split('/', 2) : [entry, ''];
    if (res !== '*' && res !== a.resource) return false;
    return sub === '*' || sub === a.subresource;
  });
}

/**
 * R202 — generic/webhook.go ShouldCallHook before its matchConditions (evaluated after it, match-conditions.ts): one of the
 * rules matches, the namespaceSelector matches the namespace's labels (namespace/matcher.go: a
 * cluster-scoped object always matches, except a Namespace itself, matched on its own labels),
 * and the objectSelector matches the labels of the new or the old object (object/matcher.go).
 */
export function shouldCallHook(
  hook: Webhook,
  a: AdmissionAttributes,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  namespaceLabels: (name: string) => Labels,
): boolean {
  if (!(hook.rules ?? []).some((r) => ruleMatches(r, a))) return false;
  return selectorsMatch(hook.namespaceSelector, hook.objectSelector, a, object, oldObject, namespaceLabels);
}

/**
 * namespace/matcher.go MatchNamespaceSelector and object/matcher.go MatchObjectSelector, shared by
 * webhooks and admission policies (policy/matching/matching.go).
 */
export function selectorsMatch(
  namespaceSelector: LabelSelectorSpec | undefined,
  objectSelector: LabelSelectorSpec | undefined,
  a: AdmissionAttributes,
  object: KubeObject | undefined,
  oldObject: KubeObject | undefined,
  namespaceLabels: (name: string) => Labels,
): boolean {
  const nsSelector = labelSelectorAsSelector(namespaceSelector ?? {});
  if (!nsSelector.empty) {
    if (a.resource === 'namespaces' && a.group === '' && a.subresource === '') {
      if (!nsSelector.matches((object ?? oldObject)?.metadata.labels)) return false;
    } else if (a.namespaced && !nsSelector.matches(namespaceLabels(a.namespace ?? ''))) return false;
  }
  const objSelector = labelSelectorAsSelector(objectSelector ?? {});
  // matchObject: an absent object (the new one of a DELETE) matches nothing.
  const matchObject = (o: KubeObject | undefined) => o !== undefined && objSelector.matches(o.metadata.labels);
  if (!objSelector.empty && !matchObject(object) && !matchObject(oldObject)) return false;
  return true;
}
