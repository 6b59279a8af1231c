import type { ControllerDescriptor } from './controller-manager';
import { EndpointsController } from './endpoint/endpoints-controller';
import { EndpointSliceController } from './endpointslice/endpointslice-controller';
import { DisruptionController, isStaleDisruptionTargetCandidate } from './disruption/disruption';
import { NamespaceController } from './namespace/namespace-controller';
import { ServiceAccountsController } from './serviceaccount/serviceaccounts-controller';
import { GarbageCollector } from './garbage-collector';
import { NodeIpamController } from './node-ipam';
import { DaemonSetsController } from './daemon/daemon-controller';
import { JobController } from './job/job-controller';
import { hasJobTrackingFinalizer } from './job/job-util';
import { DeploymentController } from './deployment/deployment-controller';
import { ReplicaSetController } from './replicaset/replica-set';
import { StatefulSetController } from './statefulset/stateful-set';
import { NodeLifecycleController } from './node-lifecycle';
import { PodGarbageCollector } from './pod-gc';
import { TaintEvictionController } from './taint-eviction';
import { PersistentVolumeController } from './volume/persistentvolume/pv-controller';
import { AttachDetachController } from './volume/attachdetach/attach-detach-controller';
import { PvcProtectionController, PvProtectionController } from './volume/protection';

/**
 * Every controller of the simulated kube-controller-manager, in the order it starts them
 * (cmd/kube-controller-manager/app/controllermanager.go NewControllerDescriptors), under its
 * canonical name (names/controller_names.go) and the aliases of older releases. This is the one
 * place a controller is registered; `--controllers` (ClusterOptions.controllers) picks among them.
 */
export const CONTROLLERS: readonly ControllerDescriptor[] = [
  {
    name: 'endpoints-controller',
    aliases: ['endpoint'],
    startsOn: [{ resource: 'services' }],
    start: (ctx) => new EndpointsController(ctx).start(),
  },
  {
    name: 'endpointslice-controller',
    aliases: ['endpointslice'],
    startsOn: [{ resource: 'services' }, { resource: 'endpointslices' }],
    start: (ctx) => new EndpointSliceController(ctx).start(),
  },
  {
    name: 'garbage-collector-controller',
    aliases: ['garbagecollector'],
    start: (ctx) => new GarbageCollector(ctx).start(),
  },
  {
    name: 'pod-garbage-collector-controller',
    aliases: ['podgc'],
    start: (ctx) => new PodGarbageCollector(ctx).start(),
  },
  {
    name: 'node-ipam-controller',
    aliases: ['nodeipam'],
    start: (ctx) => new NodeIpamController(ctx).start(),
  },
  {
    name: 'node-lifecycle-controller',
    aliases: ['nodelifecycle'],
    start: (ctx) => new NodeLifecycleController(ctx).start(),
  },
  {
    name: 'taint-eviction-controller',
    start: (ctx) => new TaintEvictionController(ctx).start(),
  },
  {
    name: 'disruption-controller',
    aliases: ['disruption'],
    startsOn: [{ resource: 'poddisruptionbudgets' }, { resource: 'pods', matches: isStaleDisruptionTargetCandidate }],
    start: (ctx) => new DisruptionController(ctx).start(),
  },
  {
    name: 'namespace-controller',
    aliases: ['namespace'],
    startsOn: [{ resource: 'namespaces' }],
    start: (ctx) => new NamespaceController(ctx).start(),
  },
  {
    name: 'serviceaccount-controller',
    aliases: ['serviceaccount'],
    startsOn: [{ resource: 'namespaces' }],
    start: (ctx) => new ServiceAccountsController(ctx).start(),
  },
  {
    name: 'job-controller',
    aliases: ['job'],
    startsOn: [{ resource: 'jobs' }, { resource: 'pods', matches: hasJobTrackingFinalizer }],
    start: (ctx) => new JobController(ctx).start(),
  },
  {
    name: 'statefulset-controller',
    aliases: ['statefulset'],
    startsOn: [{ resource: 'statefulsets' }],
    start: (ctx) => new StatefulSetController(ctx).start(),
  },
  {
    name: 'daemonset-controller',
    aliases: ['daemonset'],
    startsOn: [{ resource: 'daemonsets' }],
    start: (ctx) => new DaemonSetsController(ctx).start(),
  },
  {
    name: 'deployment-controller',
    aliases: ['deployment'],
    startsOn: [{ resource: 'deployments' }],
    start: (ctx) => new DeploymentController(ctx).start(),
  },
  {
    name: 'replicaset-controller',
    aliases: ['replicaset'],
    startsOn: [{ resource: 'replicasets' }],
    start: (ctx) => new ReplicaSetController(ctx).start(),
  },
  // The volume controllers (P8–P14), after the others so that timelines without volumes keep their order.
  {
    name: 'persistentvolume-binder-controller',
    aliases: ['persistentvolume-binder'],
    startsOn: [{ resource: 'persistentvolumeclaims' }, { resource: 'persistentvolumes' }],
    start: (ctx) => new PersistentVolumeController(ctx).start(),
  },
  {
    name: 'attachdetach-controller',
    aliases: ['attachdetach'],
    start: (ctx) => new AttachDetachController(ctx).start(),
  },
  {
    name: 'persistentvolumeclaim-protection-controller',
    aliases: ['pvc-protection'],
    startsOn: [{ resource: 'persistentvolumeclaims' }],
    start: (ctx) => new PvcProtectionController(ctx).start(),
  },
  {
    name: 'persistentvolume-protection-controller',
    aliases: ['pv-protection'],
    startsOn: [{ resource: 'persistentvolumes' }],
    start: (ctx) => new PvProtectionController(ctx).start(),
  },
];

/** What kube-controller-manager runs when `--controllers` is not given: all of them. */
export const DEFAULT_CONTROLLERS: readonly string[] = ['*'];
