import type { ContainerStatus, Pod, PodFailurePolicy, PodFailurePolicyRule } from '../../../apimachinery/types';

export const SOURCE = 'pkg/controller/job/pod_failure_policy.go';

/** What a failed pod means for its Job under a podFailurePolicy (matchPodFailurePolicy's three results). */
export interface PolicyMatch {
  /** FailJob: the message of the Job's FailureTarget/Failed condition (reason PodFailurePolicy). */
  failJobMessage?: string;
  /** Whether the failure counts against backoffLimit (false for Ignore). */
  countFailed: boolean;
  /** The action of the rule that matched; undefined when none did (the failure counts). */
  action?: string;
}

/**
 * matchPodFailurePolicy: the rules are tried in order and the first that matches decides —
 * FailJob fails the whole Job at once, Ignore does not count the failure (a disruption, e.g. the
 * DisruptionTarget condition an eviction, taint eviction or pod GC sets), Count counts it as
 * usual (FailIndex: the same here, per-index backoff is not modelled). A rule matches by the exit
 * code of a container that terminated non-zero (onExitCodes, In/NotIn, optionally one container
 * by name; init containers too) or by a pod condition with the given status (onPodConditions).
 */
export function matchPodFailurePolicy(policy: PodFailurePolicy, pod: Pod): PolicyMatch {
  const rules = policy.rules ?? [];
  for (let index = 0; index < rules.length; index++) {
    const rule = rules[index];
    const reason = ruleMatches(rule, pod);
    if (reason === undefined) continue;
    switch (rule.action) {
      case 'FailJob':
        return {
          failJobMessage: `${reason} matching FailJob rule at index ${index}`,
          countFailed: true,
          action: rule.action,
        };
      case 'Ignore':
        return { countFailed: false, action: rule.action };
      default:
        return { countFailed: true, action: rule.action };
    }
  }
  return { countFailed: true };
}

/** The start of the condition message when the rule matches the pod (upstream's wording), else undefined. */
function ruleMatches(rule: PodFailurePolicyRule, pod: Pod): string | undefined {
  const ref = `${pod.metadata.namespace}/${pod.metadata.name}`;
  if (rule.onExitCodes) {
    const req = rule.onExitCodes;
    const statuses: ContainerStatus[] = [
      ...(pod.status?.initContainerStatuses ?? []),
      ...(pod.status?.containerStatuses ?? []),
    ];
    for (const cs of statuses) {
      if (req.containerName && req.containerName !== cs.name) continue;
      const code = cs.state?.terminated?.exitCode;
      // Exit code 0 never matches: a container that succeeded is no reason for the pod's failure.
      if (code === undefined || code === 0) continue;
      const listed = req.values.includes(code);
      if ((req.operator === 'In' && listed) || (req.operator === 'NotIn' && !listed))
        return `Container ${cs.name} for pod ${ref} failed with exit code ${code}`;
    }
    return undefined;
  }
  for (const pattern of rule.onPodConditions ?? []) {
    const status = pattern.status ?? 'True';
    if ((pod.status?.conditions ?? []).some((c) => c.type === pattern.type && c.status === status))
      return `Pod ${ref} has condition ${pattern.type}`;
  }
  return undefined;
}
