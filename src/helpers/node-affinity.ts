import type { Node, Pod } from '../apimachinery/types';

/** component-helpers scheduling/corev1/nodeaffinity: does a node satisfy a pod's required node affinity (the scheduler's NodeAffinity filter, the DaemonSet controller's nodeShouldRunDaemonPod)? */

type Requirement = { key: string; operator: string; values?: string[] };

/** nodeaffinity's NodeSelectorRequirement match (component-helpers nodeaffinity: In, NotIn, Exists, DoesNotExist, Gt, Lt). */
function requirementMatches(req: Requirement, value: string | undefined): boolean {
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
    case 'Lt': {
      if (value === undefined || values.length !== 1) return false;
      const [have, want] = [Number.parseInt(value, 10), Number.parseInt(values[0], 10)];
      if (Number.isNaN(have) || Number.isNaN(want)) return false;
      return req.operator === 'Gt' ? have > want : have < want;
    }
    default:
      return false;
  }
}

/**
 * component-helpers/scheduling/corev1/nodeaffinity GetRequiredNodeAffinity.Match: every
 * nodeSelector label, and (if set) one of the required node selector terms — a term matches when
 * all its matchExpressions (on labels) and matchFields (only metadata.name) do; a term with
 * neither matches nothing.
 */
export function requiredNodeAffinityMatches(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const required = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!required) return true;
  return required.nodeSelectorTerms.some((term) => {
    const exprs = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    if (exprs.length === 0 && fields.length === 0) return false;
    return (
      exprs.every((r) => requirementMatches(r, labels[r.key])) &&
      fields.every((r) => r.key === 'metadata.name' && requirementMatches(r, node.metadata.name))
    );
  });
}
