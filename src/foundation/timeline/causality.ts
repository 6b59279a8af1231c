import type { Component, TimelineEvent } from './event';

/**
 * Who made each event happen, read from what the events carry — so the diagram draws an arrow
 * from the component that acted to the one that received, and a dot where nothing sent anything:
 *
 * - an apiserver request comes from its client (the event's actor: `kubectl`, `kubelet/node-1`,
 *   `garbage-collector`, …); of a kubelet's requests, the pod status writes and pod DELETEs are the
 *   status manager's (pkg/kubelet/status/status_manager.go syncPod), the rest the kubelet's;
 * - an etcd write comes from the apiserver request it belongs to;
 * - a watch event comes from the etcd write of the same revision (`rv=N` delivers `rev=N`);
 * - a kubelet config-source update (`DELETE pods/web`, `REMOVE pods/web`, …) comes from the watch;
 * - a container runtime call (SIGTERM, SIGKILL, preStop, StartContainer, RemoveContainer, sandbox stop/remove)
 *   comes from the kubelet that called the CRI.
 *
 * Everything else (a container exiting, a controller's decision, a volume unmounting) is the
 * component's own doing and has no sender.
 */
export interface Cause {
  /** The lane the arrow starts from. */
  readonly from: Component;
  /** The event that caused this one, when it is in the timeline. */
  readonly by?: number;
}

/** Client names (ClientIdentity.name) and the lane each one's requests come from. */
const CLIENT_LANES: Readonly<Record<string, Component>> = {
  kubectl: 'kubectl',
  user: 'user',
  controller: 'controller',
  'garbage-collector': 'gc',
  'pod-garbage-collector': 'podgc',
  'node-lifecycle-controller': 'nodelifecycle',
  'taint-eviction-controller': 'nodelifecycle',
  'default-scheduler': 'scheduler',
  'replicaset-controller': 'replicaset',
  'deployment-controller': 'deployment',
  'job-controller': 'job',
  'statefulset-controller': 'statefulset',
  'daemonset-controller': 'daemonset',
  'disruption-controller': 'disruption',
  'endpoint-controller': 'endpoints',
  'endpointslice-controller': 'endpointslice',
  'namespace-controller': 'namespace',
  'node-ipam-controller': 'controller',
  'test-scheduler': 'user',
};

/** The simulation's own clients that no lane stands for (the apiserver's own requests). */
const NO_LANE = new Set(['kube-apiserver']);

/** Runtime events that are a kubelet's CRI call (kuberuntime), not something the runtime did on its own. */
const CRI_CALL = /^(SIGTERM|SIGKILL|preStop|started|pulling image|removed|sandbox stopped|sandbox removed) /;
/** The kubelet's config source (config.go podStorage.merge) turning a watch event into a pod update. */
const CONFIG_UPDATE = /^(ADD|UPDATE|DELETE|REMOVE|RECONCILE) (pods\/\S+)$/;
const WATCH_EVENT = /^(?:ADDED|MODIFIED|DELETED) (\S+) rv=(\d+)$/;
const ETCD_WRITE = / rev=(\d+)$/;

export function causes(events: readonly TimelineEvent[]): Map<number, Cause> {
  const out = new Map<number, Cause>();
  const writeByRevision = new Map<string, number>();
  const lastWatchOf = new Map<string, number>();
  const request = requestsOf(events);
  for (const e of events) {
    switch (e.component) {
      case 'apiserver': {
        const lane = e.actor === undefined ? undefined : clientLane(e.actor, e.text);
        if (lane !== undefined) out.set(e.seq, { from: lane });
        break;
      }
      case 'etcd': {
        const rev = ETCD_WRITE.exec(e.text);
        if (rev) writeByRevision.set(rev[1]!, e.seq);
        out.set(e.seq, { from: 'apiserver', by: request.get(e.seq) });
        break;
      }
      case 'watch': {
        const m = WATCH_EVENT.exec(e.text);
        if (m) lastWatchOf.set(m[1]!, e.seq);
        out.set(e.seq, { from: 'etcd', by: m ? writeByRevision.get(m[2]!) : undefined });
        break;
      }
      case 'kubelet': {
        const m = CONFIG_UPDATE.exec(e.text);
        if (m && lastWatchOf.has(m[2]!)) out.set(e.seq, { from: 'watch', by: lastWatchOf.get(m[2]!) });
        break;
      }
      case 'runtime':
        if (CRI_CALL.test(e.text)) out.set(e.seq, { from: 'kubelet' });
        break;
      default:
        break;
    }
  }
  return out;
}

const STATUS_MANAGER_REQUEST = /^(?:(?:PATCH|UPDATE) pods\/[^/\s]+\/status|DELETE pods\/)/;

function clientLane(actor: string, text: string): Component | undefined {
  // A client from outside (a served session's: an operator whose User-Agent is `node-fetch`, a
  // Python client) gets a lane of its own, named after it, so its requests start somewhere.
  if (!actor.startsWith('kubelet/'))
    return CLIENT_LANES[actor] ?? (NO_LANE.has(actor) ? undefined : (actor as Component));
  return STATUS_MANAGER_REQUEST.test(text) ? 'status' : 'kubelet';
}

/**
 * The etcd writes and watch events of each request (its "echo"): the run of etcd and watch events
 * that follows an apiserver request at the same instant. Maps each echo event's seq to the seq of
 * the request event, so a compact view can fold the echo into the request.
 */
export function requestsOf(events: readonly TimelineEvent[]): Map<number, number> {
  const out = new Map<number, number>();
  let current: TimelineEvent | undefined;
  for (const e of events) {
    if (e.component === 'apiserver') current = e.requestId === undefined ? undefined : e;
    else if ((e.component === 'etcd' || e.component === 'watch') && current !== undefined && current.at === e.at)
      out.set(e.seq, current.seq);
    else current = undefined;
  }
  return out;
}
