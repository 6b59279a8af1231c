import { clone, toTime } from '../../apimachinery/object';
import type { Container, ContainerStatus, Pod, PodCondition, PodStatus } from '../../apimachinery/types';
import { containerShouldRestart, NO_RESTART_RULES, type RestartRuleGates } from '../../helpers/container-restart';
import {
  allContainersRestartingCondition,
  couldRestartAllContainers,
  RESTARTING_ALL_CONTAINERS,
  shouldAllContainersRestart,
} from './restart-all';
import type { Sandbox } from './runtime';

// The pod here is a stored version (or a watch event's copy of one): its arrays are frozen, and V8
// iterates frozen arrays slowly with for-of and the array builtins (map, some, filter, find: a
// generic path, several times slower). This runs for every pod on every status change, so loops
// over the pod's arrays are index loops.

/** Conditions the kubelet owns (pkg/kubelet/types/pod_status.go PodConditionsByKubelet). */
export const KUBELET_CONDITIONS: ReadonlySet<string> = new Set([
  'PodScheduled',
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  // V70 — PodConditionByKubelet also owns it with RestartAllContainersOnContainerExits (v1.35+).
  'AllContainersRestarting',
]);

/** Why a container could not start at the last SyncPod (kubelet.go reasonCache: the error's name and its message). */
export interface WaitingReason {
  reason: string;
  message?: string;
}

/**
 * kubelet_pods.go convertToAPIContainerStatuses for one container, from the runtime's view and the
 * previous status. A container the runtime no longer has keeps a terminated previous status; if
 * it was last seen running it is Waiting with a lastState of 137 ContainerStatusUnknown (K29; the
 * restart count goes up unless the pod is being deleted).
 */
function containerStatus(
  pod: Pod,
  spec: Container,
  sandbox: Sandbox | undefined,
  previous: ContainerStatus | undefined,
  listVolumeMounts: boolean,
  why?: WaitingReason,
  probedReady?: boolean,
  podRestarting = false,
): ContainerStatus {
  const { name } = spec;
  const c = sandbox?.containers.get(name);
  // prober_manager.go UpdatePodStatus: a regular init container is ready once it exited 0 (K57);
  // sidecars and regular containers while they run — or, with a readiness probe, while it succeeds.
  const runsToCompletion = isRegularInitContainer(pod, name);
  // The reasonCache is consulted only for a container that ShouldContainerBeRestarted: never once the pod is deleted.
  if (pod.metadata.deletionTimestamp) why = undefined;
  // A restarted container (K55): the runtime's restart count, and the run it replaced as lastState.
  // The status is built on `base` by assignment: a spread copy of a fresh object that then gains
  // members ({ ...base, ready }) is several times slower in V8, and this runs for every container
  // of every status generated. (Until withState sets them, `ready` and `state` are missing.)
  const base: ContainerStatus = {
    name,
    image: spec.image ?? '',
    imageID: '',
    restartCount: c?.restartCount || (previous?.restartCount ?? 0),
  } as ContainerStatus;
  const volumeMounts = listVolumeMounts ? volumeMountStatuses(spec) : undefined;
  if (volumeMounts) base.volumeMounts = volumeMounts;
  if (!c) {
    // V70 — convertToAPIContainerStatuses while all containers restart in place: one the kubelet
    // removed for it waits, with a synthesized 137 end, and counts one more restart.
    if (podRestarting && previous && !previous.state?.waiting) {
      const removed = { reason: RESTARTING_ALL_CONTAINERS, message: REMOVED_FOR_RESTART };
      const waiting = withState(base, undefined, false, false, { waiting: { ...removed } });
      waiting.lastState = { terminated: { exitCode: 137, ...removed } };
      waiting.restartCount = (previous.restartCount ?? 0) + 1;
      return waiting;
    }
    if (previous?.state?.terminated) return clone(previous);
    // A reason from the reasonCache (ErrImagePull, ImagePullBackOff) replaces ContainerCreating.
    // The default waiting reason is PodInitializing for every container of a pod with init containers.
    const state = why
      ? waitingState(why)
      : { reason: (pod.spec?.initContainers ?? []).length > 0 ? 'PodInitializing' : 'ContainerCreating' };
    const waiting = withState(base, undefined, false, false, { waiting: state });
    if (previous?.lastState) waiting.lastState = clone(previous.lastState);
    if (previous?.state?.running && !waiting.lastState?.terminated) {
      waiting.lastState = {
        terminated: {
          exitCode: 137,
          reason: 'ContainerStatusUnknown',
          message: 'The container could not be located when the pod was deleted.  The container used to be Running',
        },
      };
      if (pod.metadata.deletionTimestamp === undefined) waiting.restartCount += 1;
    }
    return waiting;
  }
  let status: ContainerStatus;
  if (c.state === 'running') {
    status = withState(base, c.id, probedReady ?? !runsToCompletion, true, {
      running: { startedAt: toTime(c.startedAt) },
    });
  } else {
    const ended = terminated({
      id: c.id,
      exitCode: c.exitCode ?? 0,
      reason: c.reason,
      startedAt: c.startedAt,
      finishedAt: c.finishedAt ?? c.startedAt,
    });
    // A container held back from its restart (CrashLoopBackOff) waits; the run that ended is its lastState.
    if (why) {
      const held = withState(base, c.id, false, false, { waiting: waitingState(why) });
      held.lastState = { terminated: ended };
      return held;
    }
    status = withState(base, c.id, runsToCompletion && c.exitCode === 0, false, { terminated: ended });
  }
  if (c.previous) status.lastState = { terminated: terminated(c.previous) };
  // V70 — the first run after an in-place restart of the pod has no previous run in the runtime:
  // convertContainerStatus keeps the synthesized end from the previous status as its lastState.
  else if (previous?.lastState?.terminated?.reason === RESTARTING_ALL_CONTAINERS)
    status.lastState = clone(previous.lastState);
  return status;
}

const REMOVED_FOR_RESTART = 'The container is removed because RestartAllContainers in place';

/** `base` completed, its members in the API's order: containerID (once the container exists), ready, started, state. */
function withState(
  base: ContainerStatus,
  containerID: string | undefined,
  ready: boolean,
  started: boolean,
  state: NonNullable<ContainerStatus['state']>,
): ContainerStatus {
  if (containerID !== undefined) base.containerID = containerID;
  base.ready = ready;
  base.started = started;
  base.state = state;
  return base;
}

function waitingState(why: WaitingReason): NonNullable<ContainerStatus['state']>['waiting'] {
  return why.message ? { reason: why.reason, message: why.message } : { reason: why.reason };
}

/** An init container without `restartPolicy: Always`: it runs to completion before the next one starts (K56). */
export function isRegularInitContainer(pod: Pod, name: string): boolean {
  const inits = pod.spec?.initContainers ?? [];
  for (let i = 0; i < inits.length; i++) if (inits[i].name === name) return inits[i].restartPolicy !== 'Always';
  return false;
}

function terminated(run: {
  id: string;
  exitCode: number;
  reason?: string;
  startedAt: number;
  finishedAt: number;
}): NonNullable<ContainerStatus['state']>['terminated'] {
  return {
    exitCode: run.exitCode,
    reason: run.reason,
    startedAt: toTime(run.startedAt),
    finishedAt: toTime(run.finishedAt),
    containerID: run.id,
  };
}

/**
 * The container's volumeMounts as convertToAPIContainerStatuses reports them (RecursiveReadOnlyMounts:
 * alpha off in v1.30, on by default from v1.31, GA in v1.33): name, mountPath, readOnly, and for a
 * read-only mount its recursiveReadOnly mode (Disabled: the runtime here supports no recursive
 * read-only mounts). The CRI does not know volume names, so they come from the spec.
 */
function volumeMountStatuses(spec: Container): ContainerStatus['volumeMounts'] {
  if (!spec.volumeMounts?.length) return undefined;
  return spec.volumeMounts.map((m) => ({
    name: m.name,
    mountPath: m.mountPath,
    ...(m.readOnly ? { readOnly: true, recursiveReadOnly: 'Disabled' } : {}),
  }));
}

/**
 * kubelet_pods.go getPhase: a regular init container that runs, waits without a previous run or is
 * missing keeps the pod Pending (pendingInitialization); one that failed (its last run exited
 * non-zero) makes it Failed with restartPolicy Never, whatever else (K57). Then: any container waiting to start ⇒ Pending;
 * something running ⇒ Running; all regular containers stopped ⇒ with `podIsTerminal` Succeeded
 * (all exit 0) or Failed whatever the restartPolicy (K32), otherwise by restartPolicy. Sidecars
 * (restartable init containers) count as running, never as stopped.
 */
export function getPhase(
  pod: Pod,
  statuses: readonly ContainerStatus[],
  podIsTerminal: boolean,
  /** V51 — ContainerRestartRules: a stopped container counts as restarting only if ContainerShouldRestart says so. */
  gates: RestartRuleGates = NO_RESTART_RULES,
): string {
  const restartRules = gates.rules;
  // V70 — a container ended by an in-place restart of the whole pod is coming back.
  const restartable = (c: Container, ended: { exitCode: number; reason?: string }) =>
    ended.reason === RESTARTING_ALL_CONTAINERS ||
    containerShouldRestart(c, spec.restartPolicy, ended.exitCode, gates.restartAll);
  const spec = pod.spec!;
  let pendingInitialization = 0;
  let failedInitialization = 0;
  const inits = spec.initContainers ?? [];
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    if (c.restartPolicy === 'Always') continue;
    const s = statusNamed(statuses, c.name);
    const ended = s?.state?.terminated ?? (s?.state?.waiting ? s.lastState?.terminated : undefined);
    // V70 — with ContainerRestartRules a failed init container fails the pod unless its own
    // policy and rules (ContainerShouldRestart) restart it; without, unless the pod's policy does.
    if (ended && ended.reason !== RESTARTING_ALL_CONTAINERS) {
      if (ended.exitCode !== 0 && (restartRules ? !restartable(c, ended) : spec.restartPolicy === 'Never'))
        failedInitialization += 1;
    } else pendingInitialization += 1;
  }
  let unknown = 0;
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let stoppedNotRestartable = 0;
  let succeeded = 0;
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    if (c.restartPolicy !== 'Always') continue;
    const s = statusNamed(statuses, c.name);
    if (!s) unknown += 1;
    else if (s.state?.running) {
      if (!s.started) pendingInitialization += 1;
      running += 1;
    } else if (s.state?.waiting && !s.lastState?.terminated) {
      pendingInitialization += 1;
      waiting += 1;
    } else if (!s.state?.terminated && !s.state?.waiting) {
      pendingInitialization += 1;
      unknown += 1;
    }
  }
  let anyRegularStarted = false;
  for (let i = 0; i < spec.containers.length; i++) {
    const s = statusNamed(statuses, spec.containers[i].name);
    if (
      s &&
      (s.state?.running !== undefined || s.state?.terminated !== undefined || s.lastState?.terminated !== undefined)
    )
      anyRegularStarted = true;
    if (!s) unknown += 1;
    else if (s.state?.running) running += 1;
    else if (s.state?.terminated) {
      stopped += 1;
      if (restartRules && !restartable(spec.containers[i], s.state.terminated)) stoppedNotRestartable += 1;
      if (s.state.terminated.exitCode === 0) succeeded += 1;
    } else if (s.state?.waiting) {
      if (s.lastState?.terminated) {
        stopped += 1;
        if (restartRules && !restartable(spec.containers[i], s.lastState.terminated)) stoppedNotRestartable += 1;
      } else waiting += 1;
    } else unknown += 1;
  }
  if (failedInitialization > 0) return 'Failed';
  if ((pendingInitialization > 0 && !anyRegularStarted) || waiting > 0) return 'Pending';
  if (running > 0 && unknown === 0) return 'Running';
  if (running === 0 && stopped > 0 && unknown === 0) {
    if (podIsTerminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    // V51 — kubelet_pods.go getPhase with ContainerRestartRules: Running while any stopped
    // container may restart, else Succeeded or Failed.
    if (restartRules)
      return stopped !== stoppedNotRestartable ? 'Running' : stopped === succeeded ? 'Succeeded' : 'Failed';
    if (spec.restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (spec.restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

/** The status of the container named so (names are unique across a pod's containers: validation). A pod has few containers: a scan beats building a map. */
function statusNamed(statuses: readonly ContainerStatus[], name: string): ContainerStatus | undefined {
  for (let i = 0; i < statuses.length; i++) if (statuses[i].name === name) return statuses[i];
  return undefined;
}

/** Builds the conditions of one generated status: type, True or False, and an optional reason and message. */
type ConditionMaker = (type: string, ok: boolean, reason?: string, message?: string) => PodCondition;

/**
 * The conditions the kubelet generates, stamped `time` (with PodObservedGenerationTracking, the
 * pod's generation last). A condition that says exactly what the previous status's condition of
 * its type says is that condition itself: the status manager keeps the previous transition time
 * of a condition whose status did not change (updateLastTransitionTime), so the new one would only
 * be copied back to the previous one's values — two objects per condition per sync of every pod.
 */
function conditionMaker(
  previous: readonly PodCondition[] | undefined,
  time: string,
  observedGeneration: number | undefined,
): ConditionMaker {
  return (type, ok, reason, message) => {
    const status = ok ? 'True' : 'False';
    const prev = conditionOfType(previous, type);
    if (prev !== undefined && saysTheSame(prev, status, reason || undefined, message || undefined, observedGeneration))
      return prev;
    const c: PodCondition = { type, status, lastTransitionTime: time };
    if (reason) c.reason = reason;
    if (message) c.message = message;
    if (observedGeneration !== undefined) c.observedGeneration = observedGeneration;
    return c;
  };
}

/** The members of a generated condition, in the order it is built with: always these three… */
const LEADING_MEMBERS = ['type', 'status', 'lastTransitionTime'];
/** …then those of these it has. */
const OPTIONAL_MEMBERS = ['reason', 'message', 'observedGeneration'];

/**
 * The condition has these values and a transition time, and nothing else, in the order of a
 * generated one (a condition read from a dump, say, has its members in another order: taking it
 * would change the order of the fields the pod is stored with).
 */
function saysTheSame(
  c: PodCondition,
  status: string,
  reason: string | undefined,
  message: string | undefined,
  observedGeneration: number | undefined,
): boolean {
  if (c.status !== status || c.reason !== reason || c.message !== message) return false;
  if (c.observedGeneration !== observedGeneration) return false;
  const fields: Record<string, unknown> = c;
  let n = 0;
  let lastOptional = -1;
  for (const key in fields) {
    if (fields[key] === undefined) return false;
    if (n < LEADING_MEMBERS.length) {
      if (key !== LEADING_MEMBERS[n]) return false;
    } else {
      const j = OPTIONAL_MEMBERS.indexOf(key);
      if (j <= lastOptional) return false;
      lastOptional = j;
    }
    n += 1;
  }
  const expected =
    3 + (reason !== undefined ? 1 : 0) + (message !== undefined ? 1 : 0) + (observedGeneration !== undefined ? 1 : 0);
  return n === expected;
}

/** The first condition of that type (a scan without a closure: it runs for every condition of every status). */
export function conditionOfType(
  conditions: readonly PodCondition[] | undefined,
  type: string,
): PodCondition | undefined {
  if (conditions) for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return conditions[i];
  return undefined;
}

/** The previous status of a container: the first of that name among the init, then the regular container statuses. */
function previousStatus(old: PodStatus, name: string): ContainerStatus | undefined {
  return statusNamed(old.initContainerStatuses ?? [], name) ?? statusNamed(old.containerStatuses ?? [], name);
}

const compareNames = (a: ContainerStatus, b: ContainerStatus): number =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/** What a kubelet's release and gates change in the status it generates. */
export interface StatusGates {
  /** PodObservedGenerationTracking (v1.34+): the pod's generation, for status and kubelet conditions. */
  observedGeneration?: number;
  /** RecursiveReadOnlyMounts (on by default from v1.31): container statuses list their volumeMounts. */
  volumeMounts: boolean;
  /** The node's IP (the kubelet's --node-ip), the pod's hostIP. */
  hostIP?: string;
  /** PodHostIPs (β on from v1.29, GA v1.30): `status.hostIPs` beside `hostIP`. */
  podHostIPs?: boolean;
  /**
   * V47 — PodReadyToStartContainersCondition (β on from v1.29): the kubelet writes the
   * PodReadyToStartContainers condition; off (the default up to v1.28), it is not in the status.
   * Unset means on.
   */
  podReadyToStartContainers?: boolean;
  /**
   * V47 — the pod's ready sandbox is not yet in what this status is generated from: it was
   * created by the SyncPod still under way (up to v1.35), so the condition is still False.
   */
  sandboxNotYetSeen?: boolean;
  /**
   * V51, V70 — ContainerRestartRules (β on from v1.35): the phase reads each container's restart
   * policy and rules; RestartAllContainersOnContainerExits (β on from v1.36): a pod with a
   * RestartAllContainers rule carries the AllContainersRestarting condition.
   */
  restartRules?: RestartRuleGates;
}

const DEFAULT_HOST_IP = '10.0.0.1';
const NO_IPS: readonly string[] = [];

export const DEFAULT_STATUS_GATES: StatusGates = { volumeMounts: true, hostIP: DEFAULT_HOST_IP, podHostIPs: true };

/**
 * kubelet_pods.go generateAPIPodStatus: the status the kubelet wants the API to hold, from the
 * runtime's state, on top of the previous status (`cached`: the status manager's copy, else the
 * pod's API status). Once either of those, or the API, holds a terminal phase it never moves back
 * (K32); conditions the kubelet does not own are kept from the API, a DisruptionTarget from the
 * previous status (K38).
 */
export function generateAPIPodStatus(
  pod: Pod,
  sandbox: Sandbox | undefined,
  podIsTerminal: boolean,
  now: number,
  cached?: PodStatus,
  gates: StatusGates = DEFAULT_STATUS_GATES,
  reasons?: ReadonlyMap<string, WaitingReason>,
  /** prober_manager.go UpdatePodStatus: the readiness results of the containers that have a readiness probe. */
  readiness?: ReadonlyMap<string, boolean>,
  evict?: { reason: string; message: string },
): PodStatus {
  const { observedGeneration } = gates;
  const spec = pod.spec!;
  const api = pod.status ?? {};
  const old = cached ?? api;
  // convertToAPIContainerStatuses: init containers in spec order (SortStatusesOfInitContainers),
  // regular containers sorted by name (SortedContainerStatuses). (Loops, not array chains: this
  // runs once per sync of every pod.)
  const inits = spec.initContainers ?? [];
  const restartRules = gates.restartRules ?? NO_RESTART_RULES;
  const couldRestartAll = couldRestartAllContainers(pod, restartRules);
  const podRestarting = couldRestartAll && shouldAllContainersRestart(pod, sandbox, old);
  const initStatuses: ContainerStatus[] = [];
  for (let i = 0; i < inits.length; i++)
    initStatuses.push(
      containerStatus(
        pod,
        inits[i],
        sandbox,
        previousStatus(old, inits[i].name),
        gates.volumeMounts,
        reasons?.get(inits[i].name),
        readiness?.get(inits[i].name),
        podRestarting,
      ),
    );
  const statuses: ContainerStatus[] = [];
  for (let i = 0; i < spec.containers.length; i++) {
    const c = spec.containers[i];
    statuses.push(
      containerStatus(
        pod,
        c,
        sandbox,
        previousStatus(old, c.name),
        gates.volumeMounts,
        reasons?.get(c.name),
        readiness?.get(c.name),
        podRestarting,
      ),
    );
  }
  if (statuses.length > 1) statuses.sort(compareNames);
  const every = initStatuses.length > 0 ? [...initStatuses, ...statuses] : statuses;
  let phase = getPhase(pod, every, podIsTerminal, restartRules);
  // The three-way merge: a terminal phase in the status manager or in the API wins.
  if (!isTerminalPhase(phase)) {
    if (isTerminalPhase(old.phase)) phase = old.phase!;
    else if (isTerminalPhase(api.phase)) phase = api.phase!;
  }
  // A pod sync handler that asks for the pod's eviction (the active deadline, K70) makes it Failed
  // with its reason and message, over whatever the containers say.
  if (evict) phase = 'Failed';
  // Pods are not allowed to transition out of a terminal phase the API shows.
  if (isTerminalPhase(api.phase)) phase = api.phase!;
  // GenerateContainersReadyCondition: sidecars, then regular containers in spec order; regular init containers do not count.
  const notReady: string[] = [];
  for (let i = 0; i < inits.length; i++)
    if (inits[i].restartPolicy === 'Always' && !statusNamed(initStatuses, inits[i].name)?.ready)
      notReady.push(inits[i].name);
  for (let i = 0; i < spec.containers.length; i++)
    if (!statusNamed(statuses, spec.containers[i].name)?.ready) notReady.push(spec.containers[i].name);
  // status/generate.go GenerateContainersReadyCondition / GeneratePodReadyCondition: a terminal
  // phase gives False with reason PodCompleted or PodFailed, whatever the containers say.
  const terminalReason = phase === 'Succeeded' ? 'PodCompleted' : phase === 'Failed' ? 'PodFailed' : undefined;
  const ready = !terminalReason && notReady.length === 0;
  const unready = terminalReason ?? (ready ? undefined : 'ContainersNotReady');
  const message = terminalReason || ready ? undefined : `containers with unready status: [${notReady.join(' ')}]`;
  // Conditions the kubelet does not own stay as the API has them; a DisruptionTarget comes from
  // the previous status if it has one, else from the API.
  const conditions: PodCondition[] = [];
  const apiConditions = api.conditions ?? [];
  for (let i = 0; i < apiConditions.length; i++)
    if (!KUBELET_CONDITIONS.has(apiConditions[i].type) && apiConditions[i].type !== 'DisruptionTarget')
      conditions.push(apiConditions[i]);
  const disruption = conditionOfType(old.conditions, 'DisruptionTarget');
  if (disruption) conditions.push(disruption);
  else
    for (let i = 0; i < apiConditions.length; i++)
      if (apiConditions[i].type === 'DisruptionTarget') conditions.push(apiConditions[i]);
  // PodObservedGenerationTracking (beta on from v1.34, #132912): the conditions the kubelet
  // generates carry the pod's generation, as does status.observedGeneration below.
  const time = toTime(now);
  const condition = conditionMaker(old.conditions, time, observedGeneration);
  // V47 — status/generate.go GeneratePodReadyToStartContainersCondition: True once no new sandbox is
  // needed (runtimeutil.PodSandboxChanged: a ready sandbox with its network); written only with
  // the PodReadyToStartContainersCondition gate on (kubelet_pods.go generateAPIPodStatus).
  if (gates.podReadyToStartContainers !== false)
    conditions.push(condition('PodReadyToStartContainers', sandbox?.state === 'ready' && !gates.sandboxNotYetSeen));
  conditions.push(
    initializedCondition(spec, initStatuses, statuses, phase, condition),
    condition('Ready', ready, unready, message),
    condition('ContainersReady', ready, unready, message),
    condition('PodScheduled', true),
  );
  // V70 — kubelet_pods.go generateAPIPodStatus: a pod that has a RestartAllContainers rule
  // carries the AllContainersRestarting condition (with the gate on).
  if (couldRestartAll) conditions.push(allContainersRestartingCondition(pod, sandbox, old, phase, time));
  // The host's IPs (getHostIPsAnyWay), and the pod's from its sandbox (convertStatusToAPIStatus,
  // the runtime's podStatus.IPs). A sandbox that is not ready reports none; the previous IPs are
  // then kept (#47806, and #125404 for the terminal status of SyncTerminatingPod), so a pod keeps
  // its IP to the end.
  // The previous lists are reused when they say the same (no new objects per sync of every pod).
  const hostIP = gates.hostIP ?? DEFAULT_HOST_IP;
  const sandboxIPs = sandbox?.state === 'ready' ? sandbox.ips : NO_IPS;
  const podIPs =
    sandboxIPs.length === 0 || sameIPs(old.podIPs, sandboxIPs) ? old.podIPs : sandboxIPs.map((ip) => ({ ip }));
  // Field by field (not spreads of optional parts): this runs at every sync of every pod. The
  // order of a new status's fields is the API's; a field the previous status has keeps its place.
  const status: PodStatus = { ...old, phase, conditions, hostIP };
  if (gates.podHostIPs)
    status.hostIPs = old.hostIPs?.length === 1 && old.hostIPs[0]!.ip === hostIP ? old.hostIPs : [{ ip: hostIP }];
  if (podIPs && podIPs.length > 0) {
    status.podIP = podIPs[0]!.ip;
    status.podIPs = podIPs;
  }
  status.startTime = old.startTime ?? toTime(now);
  if (initStatuses.length) status.initContainerStatuses = initStatuses;
  status.containerStatuses = statuses;
  if (observedGeneration !== undefined) status.observedGeneration = observedGeneration;
  // The reason and message belong to the phase: kept only while the phase stays the same.
  if (phase !== old.phase) {
    delete status.reason;
    delete status.message;
  }
  if (evict) {
    status.reason = evict.reason;
    status.message = evict.message;
  }
  return status;
}

/**
 * status/generate.go GeneratePodInitializedCondition (K57): True once every init container is
 * initialized (a regular one ready — exited 0 —, a sidecar started), with reason PodCompleted when
 * the pod Succeeded; True as well once a regular container has started (from v1.29, for sidecars that
 * restart later; no regular init container can be incomplete then). Otherwise False,
 * ContainersNotInitialized, naming the incomplete ones in spec order.
 */
function initializedCondition(
  spec: NonNullable<Pod['spec']>,
  initStatuses: readonly ContainerStatus[],
  statuses: readonly ContainerStatus[],
  phase: string,
  condition: ConditionMaker,
): PodCondition {
  if (phase === 'Succeeded') return condition('Initialized', true, 'PodCompleted');
  const incomplete: string[] = [];
  const inits = spec.initContainers ?? [];
  for (let i = 0; i < inits.length; i++) {
    const s = statusNamed(initStatuses, inits[i].name);
    if (inits[i].restartPolicy === 'Always' ? !s?.started : !s?.ready) incomplete.push(inits[i].name);
  }
  let regularStarted = false;
  for (let i = 0; i < spec.containers.length && !regularStarted; i++) {
    const s = statusNamed(statuses, spec.containers[i].name);
    regularStarted = !!(s?.state?.running || s?.state?.terminated);
  }
  if (incomplete.length === 0 || regularStarted) return condition('Initialized', true);
  return condition(
    'Initialized',
    false,
    'ContainersNotInitialized',
    `containers with incomplete status: [${incomplete.join(' ')}]`,
  );
}

/**
 * podutil.UpdatePodCondition: put `condition` into the status, replacing one of its type; its
 * lastTransitionTime is `now` unless a condition of that type already had the same status.
 */
export function updatePodCondition(status: PodStatus, condition: PodCondition, now: string): void {
  const conditions = status.conditions ?? [];
  const i = conditions.findIndex((c) => c.type === condition.type);
  const lastTransitionTime =
    i >= 0 && conditions[i].status === condition.status ? conditions[i].lastTransitionTime : now;
  const updated = {
    type: condition.type,
    status: condition.status,
    lastTransitionTime,
    reason: condition.reason,
    message: condition.message,
  };
  if (i < 0) conditions.push(updated);
  else conditions[i] = updated;
  status.conditions = conditions;
}

function sameIPs(list: readonly { ip?: string }[] | undefined, ips: readonly string[]): boolean {
  if (list === undefined || list.length !== ips.length) return false;
  for (let i = 0; i < ips.length; i++) if (list[i]!.ip !== ips[i]) return false;
  return true;
}

function isTerminalPhase(phase: string | undefined): boolean {
  return phase === 'Succeeded' || phase === 'Failed';
}
