import type { ControllerDescriptor } from './controller-manager';
import { EndpointsController } from './endpoint/endpoints-controller';
import { EndpointSliceController } from './endpointslice/endpointslice-controller';
import { DisruptionController } from './disruption/disruption';
import { NamespaceController } from './namespace/namespace-controller';
import { ServiceAccountsController } from './serviceaccount/serviceaccounts-controller';
import { GarbageCollector } from './garbage-collector';
import { NodeIpamController } from './node-ipam';
import { DaemonSetsController } from './daemon/daemon-controller';
import { JobController } from './job/job-controller';
import { DeploymentController } from './deployment/deployment-controller';
import { ReplicaSetController } from './replicaset/replica-set';
import { StatefulSetController } from './statefulset/stateful-set';
import { NodeLifecycleController, nodeLifecycleConfig } from './node-lifecycle';
import { PodGarbageCollector } from './pod-gc';
import { podInformer } from '../../client/pod-informer';
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
    start: (ctx) =>
      new EndpointsController(ctx.clock, ctx.timeline, ctx.api, ctx.informers, ctx.config.endpoints, ctx.release),
  },
  {
    name: 'endpointslice-controller',
    aliases: ['endpointslice'],
    start: (ctx) =>
      new EndpointSliceController(
        ctx.clock,
        ctx.timeline,
        ctx.api,
        ctx.informers,
        ctx.config.endpointSlice,
        ctx.release,
      ),
  },
  {
    name: 'garbage-collector-controller',
    aliases: ['garbagecollector'],
    start: (ctx) => {
      const gc = new GarbageCollector(ctx.clock, ctx.timeline, ctx.api, { release: ctx.release });
      gc.start();
      return gc;
    },
  },
  {
    name: 'pod-garbage-collector-controller',
    aliases: ['podgc'],
    start: (ctx) => {
      const gc = new PodGarbageCollector(ctx.clock, ctx.timeline, ctx.api, ctx.config.podGC);
      gc.start();
      return gc;
    },
  },
  {
    name: 'node-ipam-controller',
    aliases: ['nodeipam'],
    start: (ctx) => {
      const c = new NodeIpamController(ctx.api);
      c.start();
      return c;
    },
  },
  {
    name: 'node-lifecycle-controller',
    aliases: ['nodelifecycle'],
    start: (ctx) => {
      const c = new NodeLifecycleController(
        ctx.clock,
        ctx.timeline,
        ctx.api,
        podInformer(ctx.informers),
        nodeLifecycleConfig(ctx.release),
      );
      c.start();
      return c;
    },
  },
  {
    name: 'taint-eviction-controller',
    start: (ctx) => {
      const c = new TaintEvictionController(ctx.clock, ctx.timeline, ctx.api, podInformer(ctx.informers), {
        release: ctx.release,
      });
      c.start();
      return c;
    },
  },
  {
    name: 'disruption-controller',
    aliases: ['disruption'],
    start: (ctx) => new DisruptionController(ctx).start(),
  },
  {
    name: 'namespace-controller',
    aliases: ['namespace'],
    start: (ctx) => new NamespaceController(ctx).start(),
  },
  {
    name: 'serviceaccount-controller',
    aliases: ['serviceaccount'],
    start: (ctx) => new ServiceAccountsController(ctx).start(),
  },
  {
    name: 'job-controller',
    aliases: ['job'],
    start: (ctx) => new JobController(ctx).start(),
  },
  {
    name: 'statefulset-controller',
    aliases: ['statefulset'],
    start: (ctx) => new StatefulSetController(ctx).start(),
  },
  {
    name: 'daemonset-controller',
    aliases: ['daemonset'],
    start: (ctx) => new DaemonSetsController(ctx).start(),
  },
  {
    name: 'deployment-controller',
    aliases: ['deployment'],
    start: (ctx) => new DeploymentController(ctx).start(),
  },
  {
    name: 'replicaset-controller',
    aliases: ['replicaset'],
    start: (ctx) => new ReplicaSetController(ctx).start(),
  },
  // The volume controllers (P8–P14), after the others so that timelines without volumes keep their order.
  {
    name: 'persistentvolume-binder-controller',
    aliases: ['persistentvolume-binder'],
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
    start: (ctx) => new PvcProtectionController(ctx).start(),
  },
  {
    name: 'persistentvolume-protection-controller',
    aliases: ['pv-protection'],
    start: (ctx) => new PvProtectionController(ctx).start(),
  },
];

/** What kube-controller-manager runs when `--controllers` is not given: all of them. */
export const DEFAULT_CONTROLLERS: readonly string[] = ['*'];
