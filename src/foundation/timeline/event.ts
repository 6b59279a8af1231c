import type { Operation } from 'fast-json-patch';

/** The simulated components; each is one lane of the sequence diagram. */
export type Component =
  /** A resumed cluster (src/planning/restore/): what was read from the objects, and what was assumed from them. */
  | 'restore'
  | 'kubectl'
  | 'user'
  | 'apiserver'
  | 'admission'
  | 'etcd'
  | 'watch'
  | 'kubelet'
  | 'runtime'
  | 'volumes'
  | 'status'
  | 'events'
  | 'gc'
  | 'podgc'
  | 'nodelifecycle'
  | 'endpointslice'
  | 'endpoints'
  | 'proxy'
  | 'loadbalancer'
  | 'traffic'
  | 'disruption'
  | 'namespace'
  | 'scheduler'
  | 'replicaset'
  | 'deployment'
  | 'job'
  | 'statefulset'
  | 'daemonset'
  /** The persistent volume binder and the pvc/pv protection controllers (pkg/controller/volume). */
  | 'persistentvolume'
  /** The attach/detach controller (pkg/controller/volume/attachdetach). */
  | 'attachdetach'
  /** A CSI driver's controller sidecars (external-provisioner, external-attacher). */
  | 'csi'
  | 'controller';

export const COMPONENTS: readonly Component[] = [
  'kubectl',
  'user',
  'controller',
  'apiserver',
  'admission',
  'etcd',
  'watch',
  'kubelet',
  'runtime',
  'volumes',
  'status',
  'events',
  'gc',
  'podgc',
  'nodelifecycle',
  'endpointslice',
  'endpoints',
  'proxy',
  'loadbalancer',
  'traffic',
  'disruption',
  'namespace',
  'restore',
  'scheduler',
  'replicaset',
  'deployment',
  'job',
  'statefulset',
  'daemonset',
  'persistentvolume',
  'attachdetach',
  'csi',
];

/** One thing that happened in the simulated cluster, at a virtual instant. */
export interface TimelineEvent {
  /** Position in the timeline: strictly increasing, so equal-time events keep their order. */
  readonly seq: number;
  /** Virtual time in milliseconds since the clock's epoch. */
  readonly at: number;
  readonly component: Component;
  /** Canonical text (docs/steps.md, "Canonical timeline events"), e.g. `DELETE pods/web gracePeriodSeconds=0`. */
  readonly text: string;
  /** The upstream file and function this behaviour models, e.g. `pkg/kubelet/pod_workers.go UpdatePod`. */
  readonly source: string;
  /** Which node or client acted, when several of a kind exist (e.g. `node-1`). */
  actor?: string;
  /** For writes: the RFC 6902 patch from the previous stored version to the new one. */
  readonly patch?: readonly Operation[];
  /** For apiserver events: the id of the request (see ApiServer.request). */
  requestId?: number;
  /** Filled in when a request's response is known (e.g. `200`, `409 Conflict`). */
  outcome?: string;
}
