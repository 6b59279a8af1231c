/**
 * What kuberuntime_manager.go computePodActions decides for a pod whose sandbox is up: which
 * containers to start, and whether only sidecars are left (the pod is done).
 */
import type { Pod } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import {
  containerShouldRestart,
  NO_RESTART_RULES,
  type RestartRuleGates,
  restartRuleGates,
} from '../../helpers/container-restart';
import { computeInitContainerActions } from './init-containers';
import type { Sandbox } from './runtime';

/**
 * kuberuntime_manager.go computePodActions for a pod whose sandbox is up: while initialization
 * is under way only the init containers computeInitContainerActions picks (K56); then those (a
 * sidecar to restart) and every regular container that ShouldContainerBeRestarted: never started,
 * or exited and allowed by the restartPolicy (Always; OnFailure after a non-zero exit) — never
 * once the pod has a deletionTimestamp (K55). With ContainerRestartRules (`gates.rules`) a
 * container's own policy and rules come first (V51, V70).
 */
export function containersToStart(pod: Pod, sandbox: Sandbox, gates: RestartRuleGates = NO_RESTART_RULES): string[] {
  const init = computeInitContainerActions(pod, sandbox, gates);
  if (!init.initialized) return init.toStart;
  const regular = (pod.spec?.containers ?? []).filter((spec) => {
    const c = sandbox.containers.get(spec.name);
    if (!c) return true;
    if (c.state !== 'exited' || pod.metadata.deletionTimestamp) return false;
    if (gates.rules) return containerShouldRestart(spec, pod.spec?.restartPolicy, c.exitCode ?? 0, gates.restartAll);
    const policy = pod.spec?.restartPolicy ?? 'Always';
    return policy === 'Always' || (policy === 'OnFailure' && c.exitCode !== 0);
  });
  return [...init.toStart, ...regular.map((c) => c.name)];
}

/**
 * computePodActions' keepCount == 0 with nothing to start, for a pod with sidecars (restartable
 * init containers) and SidecarContainers on: initialized, every regular container has exited and
 * none may restart (restartPolicy Never; OnFailure after exit 0) — only sidecars would keep the
 * pod running. A pod without sidecars needs no such rule: its phase is already terminal.
 */
export function onlySidecarsLeft(pod: Pod, sandbox: Sandbox, release: Release): boolean {
  if (!release.enabled('SidecarContainers')) return false;
  if (!(pod.spec?.initContainers ?? []).some((c) => c.restartPolicy === 'Always')) return false;
  const gates = restartRuleGates(release);
  if (!computeInitContainerActions(pod, sandbox, gates).initialized) return false;
  const regular = pod.spec?.containers ?? [];
  if (!regular.every((c) => sandbox.containers.get(c.name)?.state === 'exited')) return false;
  return !containersToStart(pod, sandbox, gates).some((name) => regular.some((c) => c.name === name));
}
