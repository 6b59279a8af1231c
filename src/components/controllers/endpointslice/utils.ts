import type { Endpoint, EndpointSlice, Pod, Service, ServicePort } from '../../../apimachinery/types';
import { isPodReady } from '../../../helpers/pod-util';

/** pkg/controller/endpointslice ControllerName. */
export const CONTROLLER_NAME = 'endpointslice-controller.k8s.io';
/** --max-endpoints-per-slice default (kube-controller-manager EndpointSliceControllerConfiguration). */
export const MAX_ENDPOINTS_PER_SLICE = 100;

export const UTILS_SOURCE = 'staging/src/k8s.io/endpointslice/utils.go';

/**
 * N4 — util/controller_utils.go ShouldPodBeInEndpoints: a pod in a terminal phase, or one
 * without an IP yet, is left out; a terminating one (deletionTimestamp set) only when
 * `includeTerminating` is false. The EndpointSlice controller includes terminating pods (since
 * EndpointSliceTerminatingCondition, GA in 1.26); the Endpoints controller only with
 * publishNotReadyAddresses.
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  if (!pod.status?.podIP && !(pod.status?.podIPs ?? []).length) return false;
  if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
  return true;
}

/**
 * N5 — utils.go podToEndpoint: serving is the pod's Ready condition; terminating is a set
 * deletionTimestamp; ready is serving and not terminating — or, with publishNotReadyAddresses,
 * always true. The endpoint names its node and points at the pod.
 */
export function podToEndpoint(pod: Pod, service: Service): Endpoint {
  const serving = isPodReady(pod);
  const terminating = pod.metadata.deletionTimestamp !== undefined;
  const ready = !!service.spec?.publishNotReadyAddresses || (serving && !terminating);
  // An index loop: the stored pod's podIPs are a frozen array (V8's map walks those on a slow path).
  const podIPs = pod.status?.podIPs;
  const addresses: string[] = [];
  if (podIPs === undefined) addresses.push(pod.status!.podIP!);
  else for (let i = 0; i < podIPs.length; i++) addresses.push(podIPs[i].ip!);
  const ep: Endpoint = {
    addresses,
    conditions: { ready, serving, terminating },
    targetRef: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid },
  };
  if (pod.spec?.nodeName) ep.nodeName = pod.spec.nodeName;
  return ep;
}

/**
 * N6 — utils.go FindPort: a numeric targetPort is the port; a named one is looked up in the
 * containers' ports — and, with `sidecars`, in the restartable init containers' too — with the
 * same protocol; undefined when it is not found. The EndpointSlice controller's copy looks at
 * sidecars from v1.33 (kubernetes#128850), the Endpoints controller's podutil.FindPort from
 * v1.32 (kubernetes#127976): release.has('EndpointSliceFindPortSidecars' / 'EndpointsFindPortSidecars').
 */
export function findPort(pod: Pod | undefined, port: ServicePort, sidecars: boolean): number | undefined {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  if (pod === undefined) throw new Error(`findPort: the named port ${target} needs a pod`);
  const containers = [
    ...(pod.spec?.containers ?? []),
    ...(sidecars ? (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always') : []),
  ];
  for (const c of containers)
    for (const p of c.ports ?? [])
      if (p.name === target && (p.protocol ?? 'TCP') === (port.protocol ?? 'TCP')) return p.containerPort;
  return undefined;
}

/** Whether every port of the service has a numeric targetPort (or none): then findPort needs no pod. */
export function portsNeedNoPod(service: Service): boolean {
  const ports = service.spec?.ports ?? [];
  for (let i = 0; i < ports.length; i++) {
    const target = ports[i].targetPort ?? ports[i].port;
    if (typeof target !== 'number' && !/^\d+$/.test(target)) return false;
  }
  return true;
}

/**
 * utils.go getEndpointPorts: one EndpointPort per service port the pod has (name, number,
 * protocol). Without a pod, only for a service whose ports all pass portsNeedNoPod.
 */
export function getEndpointPorts(
  service: Service,
  pod: Pod | undefined,
  sidecarPorts: boolean,
): NonNullable<EndpointSlice['ports']> {
  const out: NonNullable<EndpointSlice['ports']> = [];
  const ports = service.spec?.ports ?? [];
  for (let i = 0; i < ports.length; i++) {
    const p = ports[i];
    const port = findPort(pod, p, sidecarPorts);
    if (port === undefined) continue;
    out.push({ name: p.name ?? '', port, protocol: p.protocol ?? 'TCP' });
  }
  return out;
}

/** The endpoint's conditions as the timeline names them: `ready=false serving=true terminating=true`. */
export function describeConditions(ep: Endpoint): string {
  const c = ep.conditions ?? {};
  return `ready=${!!c.ready} serving=${!!c.serving} terminating=${!!c.terminating}`;
}

/**
 * podEndpointChanged (endpointslice/util): what of a pod update matters to its endpoints — the
 * deletionTimestamp, readiness, IPs, node and labels (its service memberships).
 */
export function podEndpointChanged(old: Pod, pod: Pod): boolean {
  if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return false;
  if (!!old.metadata.deletionTimestamp !== !!pod.metadata.deletionTimestamp) return true;
  if (isPodReady(old) !== isPodReady(pod)) return true;
  if (old.status?.podIP !== pod.status?.podIP || old.spec?.nodeName !== pod.spec?.nodeName) return true;
  if (old.status?.phase !== pod.status?.phase) return true;
  return JSON.stringify(old.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {});
}
