import type { Pod } from '../apimachinery/types';

/** The taints a node gets when its kubelet stops reporting or reports NotReady (node lifecycle). */
export const TAINT_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const TAINT_NOT_READY = 'node.kubernetes.io/not-ready';

/** --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds (300). */
export const DEFAULT_TOLERATION_SECONDS = 300;

/**
 * plugin/pkg/admission/defaulttolerationseconds Admit: a pod that does not tolerate the
 * not-ready / unreachable NoExecute taints gets a 300 s toleration for each, so a lost node's
 * pods are evicted five minutes after the taint (K46, K47).
 */
export function admitDefaultTolerationSeconds(pod: Pod): void {
  const tolerations = pod.spec?.tolerations ?? [];
  const tolerates = (key: string) =>
    tolerations.some(
      (t) =>
        (t.key === key || (t.key === undefined && t.operator === 'Exists')) &&
        (t.effect === undefined || t.effect === 'NoExecute'),
    );
  const added = [TAINT_NOT_READY, TAINT_UNREACHABLE]
    .filter((key) => !tolerates(key))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_TOLERATION_SECONDS }));
  if (added.length > 0 && pod.spec) pod.spec.tolerations = [...tolerations, ...added];
}
