import type { Resource } from '../../apiserver/apiserver';
import type { Event, Lease, Node, Pod } from '../../apimachinery/types';
import type { Cluster } from '../../cluster/cluster';
import type { MachineState, ResumedContainer, ResumedPod } from '../../components/kubelet/machine-state';
import { LEASE_DURATION_SECONDS } from '../../components/kubelet/node-status';
import { NODE_LEASE_NAMESPACE } from '../../helpers/well-known';
import type { ContainerBehaviour } from '../../components/kubelet/runtime';
import type { VolumeBehaviour } from '../../components/kubelet/volume-manager';
import type { Component } from '../../foundation/timeline/event';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import { DumpError, type Dump, type DumpObject, type Obj } from './dump';
import { RESUMED_KINDS, resumedResource } from './resumed-kinds';
import { isWebhookConfiguration, webhooksOf, whatItCouldDo } from './unmodelled';

/**
 * How a dump (src/planning/restore/dump.ts) becomes a running cluster, decided from the objects alone
 * (rules X1–X7, docs/rules/restore.md): the objects go into etcd as they are (an etcd restore:
 * uid, timestamps, finalizers, status kept; resourceVersions are this etcd's), each node's machine
 * already runs what its pods' status shows, and every guess about what the objects cannot show is
 * an assumption, written on the timeline and overridable by the Given steps.
 */

export interface Assumption {
  component: Component;
  text: string;
  source: string;
}

export interface RestoredNode {
  name: string;
  machine: MachineState;
  /** The Node object comes from the dump (otherwise its kubelet registers it). */
  inDump: boolean;
}

export interface RestoredPod {
  name: string;
  namespace: string;
  uid: string;
  nodeName?: string;
  pod: Pod;
}

export interface RestorePlan {
  dump: Dump;
  startMs: number;
  /** The release the objects are resumed in (which kinds it stores): the cluster's, set by resumeIn. */
  release: Release;
  nodes: RestoredNode[];
  pods: RestoredPod[];
  /** Assumed behaviours (the Given steps may change them): by pod uid, container or volume name. */
  containerBehaviours: { uid: string; pod: string; container: string; behaviour: Partial<ContainerBehaviour> }[];
  volumeBehaviours: { uid: string; pod: string; volume: string; behaviour: VolumeBehaviour }[];
  assumptions: Assumption[];
  /** Objects of kinds the simulation does not store (e.g. a StatefulSet, a webhook configuration), for explanations. */
  unmodelled: DumpObject[];
  /** ReplicaSets that pods name as owner but the dump lacks: created so that the garbage collector finds their owner. */
  placeholderOwners: Obj[];
  /** Webhook configurations of the dump a step resumes with a modelled server (X18): stored instead of left out. */
  resumedWebhooks: DumpObject[];
}

/**
 * X13 — the admission policies of the dump are stored too, so the forward run (and explain's dry
 * run of a finalizer removal) is admitted by them: admissionregistration.k8s.io/v1 only, which a
 * release serves from 1.30 (R209); before, they are left out as unmodelled. Which release is known
 * once the cluster is built (a step after the objects may still change it): resumeIn decides.
 */
const POLICY_RESOURCES: Readonly<Record<string, Resource>> = {
  ValidatingAdmissionPolicy: 'validatingadmissionpolicies',
  ValidatingAdmissionPolicyBinding: 'validatingadmissionpolicybindings',
};
const POLICY_API_VERSION = 'admissionregistration.k8s.io/v1';
const isPolicy = (o: DumpObject) => POLICY_RESOURCES[o.kind] !== undefined && o.obj.apiVersion === POLICY_API_VERSION;

/** The resource a dump object is stored as in `release`, or undefined when the simulation does not store it. */
function storedAs(o: DumpObject, release: Release): Resource | undefined {
  const resumed = resumedResource(o.kind, o.apiVersion);
  if (resumed !== undefined) return resumed;
  return isPolicy(o) && release.atLeast(30) ? POLICY_RESOURCES[o.kind] : undefined;
}

/** X7, X15 — an object left out, with what it could do to a pod. */
const notModelled = (o: DumpObject) =>
  `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name} is not modelled: left out (${o.where}); ${whatItCouldDo(o)}`;

/**
 * X18 — a step makes a webhook configuration of the objects part of the run: the one holding the
 * webhook named is stored (its server is then the step's modelled one) instead of left out.
 */
export function resumeWebhookConfiguration(plan: RestorePlan, webhook: string): DumpObject {
  const config = plan.unmodelled.find(
    (o) => isWebhookConfiguration(o) && webhooksOf(o).some((h) => h.name === webhook),
  );
  if (!config) {
    const known = plan.unmodelled
      .filter(isWebhookConfiguration)
      .flatMap((o) => webhooksOf(o).map((h) => `"${h.name}"`));
    throw new DumpError(
      `no webhook configuration of the objects has a webhook "${webhook}" (${known.length > 0 ? `they have ${known.join(', ')}` : 'the objects have none'})`,
    );
  }
  plan.unmodelled.splice(plan.unmodelled.indexOf(config), 1);
  const note = notModelled(config);
  plan.assumptions = plan.assumptions.filter((a) => a.text !== note);
  plan.assumptions.push({
    component: 'restore',
    text: `${config.kind} ${config.name} is resumed: its webhook ${webhook} is answered by the server a step describes`,
    source: SOURCE,
  });
  plan.resumedWebhooks.push(config);
  return config;
}

/** Fixes the release the objects are resumed in, before they are written: the policies it does not serve join the unmodelled objects. */
export function resumeIn(plan: RestorePlan, release: Release): void {
  plan.release = release;
  if (release.atLeast(30)) return;
  for (const o of plan.dump.objects.filter(isPolicy)) {
    plan.unmodelled.push(o);
    plan.assumptions.push({ component: 'restore', text: notModelled(o), source: SOURCE });
  }
}
const SOURCE = 'src/planning/restore/restore.ts (objects read from a dump)';

const ms = (t: unknown): number | undefined => (typeof t === 'string' ? Date.parse(t) : undefined);

/** Everything decided from the dump: the start time, each node's machine, the assumptions. */
export function planRestore(dump: Dump, nowMs?: number): RestorePlan {
  const startMs = nowMs ?? dump.newestMs;
  if (startMs === undefined)
    throw new DumpError(
      `${dump.files.join(', ')}: no object carries a time (creationTimestamp, a condition, a lease renewal…): give the time the objects were read (--now)`,
    );
  const plan: RestorePlan = {
    dump,
    startMs,
    release: DEFAULT_RELEASE,
    nodes: [],
    pods: [],
    containerBehaviours: [],
    volumeBehaviours: [],
    assumptions: [],
    unmodelled: [],
    placeholderOwners: [],
    resumedWebhooks: [],
  };
  const assume = (component: Component, text: string, source = SOURCE) =>
    plan.assumptions.push({ component, text, source });
  const of = (kind: string) => dump.objects.filter((o) => o.kind === kind);
  plan.unmodelled = dump.objects.filter((o) => resumedResource(o.kind, o.apiVersion) === undefined && !isPolicy(o));
  for (const o of plan.unmodelled) assume('restore', notModelled(o));

  const leases = new Map(
    of('Lease')
      .filter((l) => l.namespace === NODE_LEASE_NAMESPACE)
      .map((l) => [l.name, l.obj as Lease]),
  );
  const machines = new Map<string, RestoredNode>();
  for (const n of of('Node')) {
    const node: RestoredNode = { name: n.name, machine: { pods: [] }, inDump: true };
    const since = unreachableSince(n.obj as Node, leases.get(n.name), startMs);
    if (since !== undefined) {
      node.machine.unreachableSince = since.at;
      assume(
        'restore',
        `node ${n.name} is unreachable: ${since.why}; its kubelet and containers are assumed still running, cut off from the apiserver`,
        'pkg/controller/nodelifecycle/node_lifecycle_controller.go tryUpdateNodeHealth (Ready=Unknown once the lease is older than the grace period)',
      );
    }
    machines.set(n.name, node);
  }

  const events = of('Event').map((e) => e.obj as Event & { regarding?: Event['involvedObject']; note?: string });
  for (const p of of('Pod')) {
    const pod = p.obj as Pod;
    const uid = pod.metadata.uid ?? '';
    if (uid === '')
      throw new DumpError(
        `${p.where}: field metadata.uid is missing: a resumed pod keeps the uid the cluster gave it (dump it with kubectl get -o yaml)`,
      );
    const nodeName = pod.spec?.nodeName;
    plan.pods.push({ name: p.name, namespace: p.namespace!, uid, nodeName, pod });
    // X7 — an owner the objects name but lack exists (the dump is a part of the cluster).
    for (const ref of pod.metadata.ownerReferences ?? []) {
      if (ref.kind !== 'ReplicaSet' || of('ReplicaSet').some((r) => r.name === ref.name && r.namespace === p.namespace))
        continue;
      if (plan.placeholderOwners.some((o) => (o.metadata as Obj).uid === ref.uid)) continue;
      plan.placeholderOwners.push({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: ref.name, namespace: p.namespace, uid: ref.uid },
        spec: {
          replicas: 1,
          selector: { matchLabels: pod.metadata.labels ?? {} },
          template: {
            metadata: { labels: pod.metadata.labels ?? {} },
            spec: { containers: pod.spec?.containers ?? [] },
          },
        },
      });
      assume(
        'restore',
        `owner replicasets/${ref.name} of pods/${p.name} is not in the objects: assumed to exist (a placeholder keeps the garbage collector from collecting the pod)`,
        'pkg/controller/garbagecollector/garbagecollector.go isDangling',
      );
    }
    if (nodeName === undefined) continue;
    let node = machines.get(nodeName);
    if (!node) {
      node = { name: nodeName, machine: { pods: [] }, inDump: false };
      machines.set(nodeName, node);
      assume(
        'restore',
        `node ${nodeName} of pods/${p.name} is not in the objects: assumed to exist and to reach the apiserver (Given node "${nodeName}" is unreachable says otherwise)`,
      );
    }
    const resumed = resumedPod(pod, `pods/${p.name}`);
    node.machine.pods.push(resumed);
    const running = resumed.containers.filter((c) => c.state === 'running').map((c) => c.name);
    if (pod.metadata.deletionTimestamp && running.length > 0) {
      resumed.killDeadlineMs = ms(pod.metadata.deletionTimestamp);
      for (const container of running) {
        plan.containerBehaviours.push({ uid, pod: p.name, container, behaviour: { sigterm: { kind: 'ignores' } } });
        assume(
          'runtime',
          `container ${container} of pods/${p.name} still runs after its SIGTERM: assumed to ignore it until the SIGKILL at the deadline (Given container "${container}" of pod "${p.name}" exits 5s after SIGTERM says otherwise)`,
        );
      }
    }
    // X6 — what the kubelet's Events tell of: a volume that does not unmount, a container the runtime cannot kill.
    for (const e of events) {
      const about = e.involvedObject ?? e.regarding;
      if (!about || about.kind !== 'Pod' || (about.uid ? about.uid !== uid : about.name !== p.name)) continue;
      const reason = (e.reason ?? '').toLowerCase();
      const message = e.message ?? e.note ?? '';
      if (reason === 'failedunmount') {
        for (const volume of failedVolumes(pod, message)) {
          plan.volumeBehaviours.push({ uid, pod: p.name, volume, behaviour: { unmountMs: 0, neverUnmounts: true } });
          assume(
            'volumes',
            `volume ${volume} of pods/${p.name} cannot be unmounted: an Event ${e.reason} says "${truncate(message)}" (Given volume "${volume}" of pod "${p.name}" takes 20s to unmount says otherwise)`,
            'pkg/kubelet/volumemanager/reconciler (FailedUnMount Events of operationExecutor.UnmountVolume)',
          );
        }
      } else if (
        reason === 'failedkillpod' &&
        /KillPodSandbox/.test(message) &&
        resumed.sandboxTeardownError === undefined
      ) {
        // X14 — the runtime's StopPodSandbox fails (the network plugin cannot tear the pod's network down).
        resumed.sandboxTeardownError = sandboxError(message);
        assume(
          'runtime',
          `the sandbox of pods/${p.name} cannot be torn down: an Event ${e.reason} says "${truncate(message)}"; every StopPodSandbox is assumed to fail with "${truncate(resumed.sandboxTeardownError)}"`,
          'pkg/kubelet/kuberuntime/kuberuntime_manager.go killPodWithSyncResult (KillPodSandboxError)',
        );
      } else if (reason === 'failedkillpod' && !/KillPodSandbox/.test(message)) {
        for (const container of running) {
          plan.containerBehaviours.push({
            uid,
            pod: p.name,
            container,
            behaviour: { sigterm: { kind: 'ignores' }, survivesSigkill: true },
          });
          assume(
            'runtime',
            `container ${container} of pods/${p.name} cannot be killed: an Event ${e.reason} says "${truncate(message)}"; assumed to survive SIGKILL, so that every StopContainer fails`,
            'pkg/kubelet/kuberuntime/kuberuntime_manager.go killPodWithSyncResult (FailedKillPod)',
          );
        }
      }
    }
  }
  plan.nodes = [...machines.values()];
  return plan;
}

/** The runtime's error inside a FailedKillPod message naming KillPodSandbox (`… with KillPodSandboxError: "ERR"`), unescaped once. */
function sandboxError(message: string): string {
  const m = /KillPodSandboxError: "((?:[^"\\]|\\.)*)"/.exec(message);
  return m ? m[1].replace(/\\(.)/g, '$1') : message;
}

function truncate(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}…` : s;
}

/**
 * X5 — a node is unreachable when its Ready condition is Unknown (the node lifecycle controller
 * wrote it: no heartbeat within the grace period) and its lease is stale: not renewed within
 * leaseDurationSeconds before now. Without its Lease in the dump, the condition's last heartbeat stands in.
 */
function unreachableSince(
  node: Node,
  lease: Lease | undefined,
  nowMs: number,
): { at: number; why: string } | undefined {
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'Unknown') return undefined;
  const renew = ms(lease?.spec?.renewTime);
  const duration = (lease?.spec?.leaseDurationSeconds ?? LEASE_DURATION_SECONDS) * 1000;
  const last = renew ?? ms(ready.lastHeartbeatTime) ?? ms(ready.lastTransitionTime) ?? nowMs;
  if (nowMs - last < duration) return undefined;
  const what =
    renew !== undefined
      ? `its lease was last renewed at ${lease!.spec!.renewTime}`
      : `its last heartbeat was at ${ready.lastHeartbeatTime ?? ready.lastTransitionTime}`;
  return {
    at: last,
    why: `Ready is Unknown (${ready.reason ?? 'no reason'}) and ${what}, ${Math.round((nowMs - last) / 1000)}s before the objects were read`,
  };
}

/** X3 — the machine runs what the status shows: running containers run, terminated ones have exited; volumes stay mounted until the pod is terminal and not deleted. */
function resumedPod(pod: Pod, podRef: string): ResumedPod {
  const containers: ResumedContainer[] = [];
  for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    const base = { name: s.name, id: s.containerID, restartCount: s.restartCount ?? 0 };
    const running = s.state?.running;
    const done = s.state?.terminated;
    if (running) containers.push({ ...base, state: 'running', startedAt: ms(running.startedAt) ?? 0 });
    else if (done)
      containers.push({
        ...base,
        state: 'exited',
        startedAt: ms(done.startedAt) ?? ms(done.finishedAt) ?? 0,
        finishedAt: ms(done.finishedAt),
        exitCode: done.exitCode,
        reason: done.reason,
      });
  }
  const terminal = pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
  const mounted = !terminal || pod.metadata.deletionTimestamp !== undefined;
  return {
    uid: pod.metadata.uid!,
    podRef,
    containers,
    volumes: mounted ? (pod.spec?.volumes ?? []).map((v) => v.name) : [],
  };
}

/** The volumes a FailedUnMount message names (`for volume "NAME"`), or else the pod's claims, or else all its volumes. */
function failedVolumes(pod: Pod, message: string): string[] {
  const volumes = pod.spec?.volumes ?? [];
  const named = [...message.matchAll(/volume "([^"]+)"/g)].map((m) => m[1]);
  const direct = volumes.filter(
    (v) => named.includes(v.name) || (v.persistentVolumeClaim && named.includes(v.persistentVolumeClaim.claimName)),
  );
  if (direct.length > 0) return direct.map((v) => v.name);
  const claims = volumes.filter((v) => v.persistentVolumeClaim || v.csi);
  return (claims.length > 0 ? claims : volumes).map((v) => v.name);
}

/**
 * X1 — the objects go into etcd as they are, the way an etcd snapshot restore brings a cluster
 * back: no admission, no defaulting, nothing dropped; each gets a revision of this etcd as its
 * resourceVersion. Namespaces the objects live in are created when the dump lacks them.
 */
export function writeObjects(cluster: Cluster, plan: RestorePlan): void {
  const api = cluster.apiserver;
  const dump = plan.dump;
  const put = (resource: Resource, namespace: string | undefined, name: string, obj: Obj) => {
    const { resourceVersion: _rv, ...metadata } = obj.metadata as Obj;
    api.etcd.create(api.keyFor(resource, namespace, name), { ...obj, metadata });
  };
  const stored = dump.objects.filter((o) => storedAs(o, plan.release) !== undefined);
  const namespaces = new Set(stored.filter((o) => o.kind === 'Namespace').map((o) => o.name));
  for (const ns of new Set(stored.map((o) => o.namespace).filter((n): n is string => n !== undefined))) {
    if (namespaces.has(ns)) continue;
    namespaces.add(ns);
    put('namespaces', undefined, ns, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  }
  // Admission policies, namespaces, nodes and leases first, then owners, then pods, then Events, as a cluster would have written them.
  const order = [
    'ValidatingAdmissionPolicy',
    'ValidatingAdmissionPolicyBinding',
    'Namespace',
    'Node',
    'Lease',
    ...Object.keys(RESUMED_KINDS).filter(
      (k) => !['Namespace', 'Node', 'Lease', 'Pod', 'Event', 'ReplicaSet'].includes(k),
    ),
    'ReplicaSet',
    'Pod',
    'Event',
  ];
  for (const kind of order) {
    for (const o of stored)
      if (o.kind === kind)
        put(storedAs(o, plan.release)!, o.namespace, o.name, kind === 'Event' ? coreEvent(o.obj) : o.obj);
    if (kind === 'Namespace')
      for (const o of plan.resumedWebhooks)
        put(
          o.kind === 'MutatingWebhookConfiguration'
            ? 'mutatingwebhookconfigurations'
            : 'validatingwebhookconfigurations',
          undefined,
          o.name,
          o.obj,
        );
    if (kind === 'ReplicaSet')
      for (const rs of plan.placeholderOwners)
        put('replicasets', (rs.metadata as Obj).namespace as string, (rs.metadata as Obj).name as string, rs);
  }
}

/** An events.k8s.io/v1 Event as the core v1 Event the store keeps (the server shows both views of one object). */
function coreEvent(obj: Obj): Obj {
  if (obj.apiVersion === 'v1') return obj;
  const {
    regarding,
    note,
    deprecatedFirstTimestamp,
    deprecatedLastTimestamp,
    deprecatedCount,
    deprecatedSource,
    ...rest
  } = obj;
  return {
    ...rest,
    apiVersion: 'v1',
    involvedObject: regarding,
    message: note,
    firstTimestamp: deprecatedFirstTimestamp,
    lastTimestamp: deprecatedLastTimestamp,
    count: deprecatedCount,
    source: deprecatedSource,
  };
}
