/**
 * KEP-5307 container restart rules as pkg/api/v1/pod/util.go reads them (ContainerShouldRestart);
 * the kubelet's restart decision and its pod phase both ask it (V51).
 */

/** A rule of `restartPolicyRules` (KEP-5307; not in this project's Container type). */
export interface ContainerRestartRule {
  action?: string;
  exitCodes?: { operator?: string; values?: number[] };
}

/**
 * V51 — pkg/api/v1/pod/util.go ContainerShouldRestart (ContainerRestartRules on): with a
 * container-level restartPolicy, the first of its restartPolicyRules whose exit codes match
 * (In: the code is listed; NotIn: it is not) decides when its action is Restart; any other action
 * (RestartAllContainers) falls through, as does no match, to the container's policy (Always; OnFailure
 * after a non-zero exit; Never). Without one the pod's restartPolicy decides.
 */
export function containerShouldRestart(
  container: { restartPolicy?: string; restartPolicyRules?: readonly ContainerRestartRule[] },
  podRestartPolicy: string | undefined,
  exitCode: number,
): boolean {
  if (container.restartPolicy !== undefined) {
    const rule = (container.restartPolicyRules ?? []).find((r) => {
      if (!r.exitCodes) return false;
      const listed = (r.exitCodes.values ?? []).includes(exitCode);
      return r.exitCodes.operator === 'In' ? listed : r.exitCodes.operator === 'NotIn' ? !listed : false;
    });
    if (rule?.action === 'Restart') return true;
    if (container.restartPolicy === 'Always') return true;
    if (container.restartPolicy === 'OnFailure') return exitCode !== 0;
    if (container.restartPolicy === 'Never') return false;
  }
  if (podRestartPolicy === 'OnFailure') return exitCode !== 0;
  return podRestartPolicy !== 'Never';
}
