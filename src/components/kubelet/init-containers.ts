import type { Pod } from '../../apimachinery/types';
import { containerShouldRestart, NO_RESTART_RULES, type RestartRuleGates } from '../../helpers/container-restart';
import type { Sandbox } from './runtime';

/** What the init containers ask of one SyncPod (kuberuntime_manager.go podActions, the init part). */
export interface InitContainerActions {
  /** Every init container has done its part (a regular one exited 0, a sidecar started): the regular containers may run. */
  initialized: boolean;
  /** Init containers to start in this sync, in spec order (a never-run one, a failed one to retry, an exited sidecar). */
  toStart: string[];
}

/**
 * kuberuntime_container.go computeInitContainerActions (K56), for the states the runtime here has
 * (running, exited, absent; no startup or liveness probes, so a running sidecar counts as started).
 * The init containers are read from the last one back: the last one with a status tells how far
 * initialization got — running: wait; exited 0: start the next one (or, the last one, done);
 * exited non-zero: start it again (restartPolicy Never instead makes the pod Failed, which SyncPod
 * sees as terminal before it gets here, so KillPod is not needed); with ContainerRestartRules
 * (`gates.rules`, V70) the init container's own restartPolicy and rules decide that first
 * (ContainerShouldRestart), so an init container with `restartPolicy: Never` fails a pod whose
 * policy is Always, and one with a matching Restart rule is retried in a Never pod; a sidecar that runs lets the next
 * one start and one that exited is restarted. Once a regular container runs, regular init
 * containers are never looked at again. None started yet: the first one.
 *
 * Before v1.29 (SidecarContainers off) findNextInitContainerToRun decided instead; this function
 * came with KEP-753 (#116429, v1.28 alpha). For regular init containers both pick the same
 * container, so one function serves every release.
 */
export function computeInitContainerActions(
  pod: Pod,
  sandbox: Sandbox | undefined,
  gates: RestartRuleGates = NO_RESTART_RULES,
): InitContainerActions {
  const inits = pod.spec?.initContainers ?? [];
  if (inits.length === 0) return { initialized: true, toStart: [] };
  let initialized = (pod.spec?.containers ?? []).some((c) => sandbox?.containers.get(c.name)?.state === 'running');
  let previouslyInitialized = initialized;
  const podPolicy = pod.spec?.restartPolicy;
  const toStart: number[] = [];
  for (let i = inits.length - 1; i >= 0; i--) {
    const container = inits[i];
    const restartable = container.restartPolicy === 'Always';
    const status = sandbox?.containers.get(container.name);
    if (!status) {
      // Its last run is gone from the runtime: only a sidecar is started again.
      if (previouslyInitialized && restartable) toStart.push(i);
      continue;
    }
    if (previouslyInitialized && !restartable) continue;
    if (status.state === 'running') {
      if (restartable) {
        if (i === inits.length - 1) initialized = true;
        else if (!previouslyInitialized) toStart.push(i + 1);
      }
    } else if (restartable) {
      toStart.push(i);
    } else if (status.exitCode !== 0) {
      const restart = gates.rules
        ? containerShouldRestart(container, podPolicy, status.exitCode ?? 1, gates.restartAll)
        : podPolicy !== 'Never';
      if (!restart) return { initialized: false, toStart: [] };
      toStart.push(i);
    } else if (i === inits.length - 1) {
      initialized = true;
    } else {
      toStart.push(i + 1);
    }
    previouslyInitialized = true;
  }
  if (!previouslyInitialized) toStart.push(0);
  return { initialized, toStart: toStart.reverse().map((i) => inits[i].name) };
}
