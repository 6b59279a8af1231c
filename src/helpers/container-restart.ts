/**
 * KEP-5307 container restart rules and KEP-5532's RestartAllContainers action as
 * pkg/api/v1/pod/util.go reads them (ContainerShouldRestart, FindMatchingContainerRestartRule,
 * AllContainersCouldRestart); the kubelet's restart decisions, its pod phase and its probe
 * workers all ask them (V51, V70).
 */
import type { Container, PodSpec } from '../apimachinery/types';
import type { Release } from '../foundation/release';

/** A rule of `restartPolicyRules` (KEP-5307; not in this project's Container type). */
export interface ContainerRestartRule {
  action?: string;
  exitCodes?: { operator?: string; values?: number[] };
}

/** A container as KEP-5307 extends it. */
type WithRules = { restartPolicy?: string; restartPolicyRules?: readonly ContainerRestartRule[] };

/**
 * The kubelet gates that decide how it reads a container's restart rules: `rules` is
 * ContainerRestartRules (β on from v1.35), `restartAll` RestartAllContainersOnContainerExits
 * (α 1.35, β on from v1.36), which only matters with the rules on (kube-apiserver drops the
 * rules otherwise).
 */
export interface RestartRuleGates {
  readonly rules: boolean;
  readonly restartAll: boolean;
}

export const NO_RESTART_RULES: RestartRuleGates = { rules: false, restartAll: false };

export function restartRuleGates(release: Release): RestartRuleGates {
  const rules = release.enabled('ContainerRestartRules');
  return { rules, restartAll: rules && release.enabled('RestartAllContainersOnContainerExits') };
}

/**
 * pkg/api/v1/pod/util.go FindMatchingContainerRestartRule: the first rule whose exit codes match
 * (In: the code is listed; NotIn: it is not); a rule without exitCodes never matches.
 */
export function findMatchingContainerRestartRule(
  container: WithRules,
  exitCode: number,
): ContainerRestartRule | undefined {
  return (container.restartPolicyRules ?? []).find((r) => {
    if (!r.exitCodes) return false;
    const listed = (r.exitCodes.values ?? []).includes(exitCode);
    return r.exitCodes.operator === 'In' ? listed : r.exitCodes.operator === 'NotIn' ? !listed : false;
  });
}

/**
 * V51 — pkg/api/v1/pod/util.go ContainerShouldRestart (ContainerRestartRules on): with a
 * container-level restartPolicy, the first matching rule decides when its action is Restart, and
 * (V70) when it is RestartAllContainers while RestartAllContainersOnContainerExits is on
 * (`restartAll`: the whole pod restarts, so this container does too); otherwise, as when nothing
 * matches, the container's policy decides (Always; OnFailure after a non-zero exit; Never).
 * Without one the pod's restartPolicy decides.
 */
export function containerShouldRestart(
  container: WithRules,
  podRestartPolicy: string | undefined,
  exitCode: number,
  restartAll = false,
): boolean {
  if (container.restartPolicy !== undefined) {
    const rule = findMatchingContainerRestartRule(container, exitCode);
    if (rule?.action === 'Restart') return true;
    if (rule?.action === 'RestartAllContainers' && restartAll) return true;
    if (container.restartPolicy === 'Always') return true;
    if (container.restartPolicy === 'OnFailure') return exitCode !== 0;
    if (container.restartPolicy === 'Never') return false;
  }
  if (podRestartPolicy === 'OnFailure') return exitCode !== 0;
  return podRestartPolicy !== 'Never';
}

/**
 * V70 — pkg/api/v1/pod/util.go AllContainersCouldRestart: some init or regular container has a
 * rule whose action is RestartAllContainers. Only such a pod gets the AllContainersRestarting
 * condition, and only its terminated containers may come back to life (status manager).
 */
export function allContainersCouldRestart(spec: PodSpec | undefined): boolean {
  // Index loops: this runs for every status the kubelet generates, on frozen arrays.
  const has = (list: readonly Container[] | undefined) => {
    if (list)
      for (let i = 0; i < list.length; i++) {
        const rules = (list[i] as WithRules).restartPolicyRules;
        if (rules) for (let j = 0; j < rules.length; j++) if (rules[j].action === 'RestartAllContainers') return true;
      }
    return false;
  };
  return !!spec && (has(spec.initContainers) || has(spec.containers));
}
