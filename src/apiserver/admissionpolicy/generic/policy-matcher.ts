import type { KubeObject } from '../../../apimachinery/object';
import type { Labels } from '../../../apimachinery/selectors';
import type { MatchResources, NamedRuleWithOperations } from '../../../apimachinery/types';
import { type AdmissionAttributes, ruleMatches, selectorsMatch } from '../../webhook/matching';

/**
 * generic/policy_matcher.go policyMatcher: whether a policy (its matchConstraints) and a binding
 * (its matchResources) match one request, for the validating and the mutating policy plugins.
 */
export class PolicyMatcher {
  constructor(
    private readonly attributes: AdmissionAttributes,
    private readonly object: KubeObject | undefined,
    private readonly oldObject: KubeObject | undefined,
    private readonly namespaceLabels: (ns: string) => Labels,
  ) {}

  /** DefinitionMatches: a policy without matchConstraints matches nothing (validation requires them, with rules). */
  definitionMatches(policy: { readonly spec?: { readonly matchConstraints?: MatchResources } }): boolean {
    const c = policy.spec?.matchConstraints;
    return c ? this.matches(c, true) : false;
  }

  /** BindingMatches: a binding without matchResources, or without rules, matches every resource its policy does. */
  bindingMatches(binding: { readonly spec?: { readonly matchResources?: MatchResources } }): boolean {
    const m = binding.spec?.matchResources;
    return m ? this.matches(m, false) : true;
  }

  /**
   * policy/matching/matching.go Matches: the selectors, no exclude rule matching, and one of the
   * resource rules (with its resourceNames, when given).
   */
  private matches(m: MatchResources, requireRules: boolean): boolean {
    const a = this.attributes;
    if (!selectorsMatch(m.namespaceSelector, m.objectSelector, a, this.object, this.oldObject, this.namespaceLabels))
      return false;
    const named = (r: NamedRuleWithOperations) =>
      ruleMatches(r, a) && ((r.resourceNames ?? []).length === 0 || r.resourceNames!.includes(a.name));
    if ((m.excludeResourceRules ?? []).some(named)) return false;
    if ((m.resourceRules ?? []).length === 0) return !requireRules;
    return m.resourceRules!.some(named);
  }
}
