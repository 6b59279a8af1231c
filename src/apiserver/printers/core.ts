import type {
  ConfigMap,
  EndpointSlice,
  Endpoints,
  Event,
  Lease,
  Namespace,
  Node,
  Pod,
  Secret,
  Service,
  ServiceAccount,
} from '../../apimachinery/types';
import { fromTime } from '../../apimachinery/object';
import type { Release } from '../../foundation/release';
import {
  AGE,
  age,
  type Cell,
  column,
  count,
  humanDuration,
  keys,
  listWithMore,
  NAME,
  NAME_DESCRIPTION,
  type Printer,
} from './printer';

export const podPrinter: Printer = {
  columns: [
    NAME,
    column('Ready', 'Ready containers out of all containers of the pod.'),
    column('Status', 'One word summing up the pod and its containers (printPod).'),
    column('Restarts', 'Container restarts, with how long ago the last one was.'),
    AGE,
    column('IP', 'The pod IP, once allocated.', 1),
    column('Node', 'The node the pod is bound to (spec.nodeName).', 1),
    column('Nominated Node', 'The node a preempting pod waits for (status.nominatedNodeName).', 1),
    column('Readiness Gates', 'Readiness gate conditions that are true, out of all gates.', 1),
  ],
  cells: (obj, now, release) => podCells(obj as Pod, now, release),
  // podSuccessConditions, podFailedConditions: a finished pod's row is marked Completed.
  conditions: (obj) => {
    const phase = (obj as Pod).status?.phase;
    if (phase === 'Succeeded')
      return [
        { type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' },
      ];
    if (phase === 'Failed')
      return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
    return undefined;
  },
};

export const nodePrinter: Printer = {
  columns: [
    NAME,
    column('Status', 'Ready, NotReady or Unknown, and SchedulingDisabled when cordoned.'),
    column('Roles', 'Roles from the node-role.kubernetes.io/ labels.'),
    AGE,
    column('Version', 'The kubelet version the node reports.'),
    column('Internal-IP', "The node's InternalIP address.", 1),
    column('External-IP', "The node's ExternalIP address, if any.", 1),
    column('OS-Image', 'The operating system image the node reports.', 1),
    column('Kernel-Version', 'The kernel version the node reports.', 1),
    column('Container-Runtime', 'The container runtime and its version the node reports.', 1),
  ],
  cells: (obj, now) => nodeCells(obj as Node, now),
};

export const eventPrinter: Printer = {
  columns: [
    column('Last Seen', 'How long ago the event last happened.'),
    column('Type', 'Normal or Warning.'),
    column('Reason', 'A short machine-readable reason.'),
    column('Object', 'The object the event is about.'),
    column('Subobject', 'The part of the object the event is about (e.g. a container).', 1),
    column('Source', 'The component that reported the event.', 1),
    column('Message', 'What happened, for people.'),
    column('First Seen', 'How long ago the event first happened.', 1),
    column('Count', 'How many times the event happened.', 1),
    column('Name', NAME_DESCRIPTION, 1, 'name'),
  ],
  cells: (obj, now) => eventCells(obj as Event, now),
};

export const namespacePrinter: Printer = {
  columns: [NAME, column('Status', 'Active or Terminating.'), AGE],
  cells: (obj, now) => [
    obj.metadata.name ?? '',
    (obj as Namespace).status?.phase ?? '',
    age(obj.metadata.creationTimestamp, now),
  ],
};

export const secretPrinter: Printer = {
  columns: [
    NAME,
    column('Type', 'What the secret holds (e.g. Opaque, kubernetes.io/tls).'),
    count('Data', 'How many keys its data holds.'),
    AGE,
  ],
  cells: (obj, now) => [
    obj.metadata.name ?? '',
    (obj as Secret).type ?? '',
    keys((obj as Secret).data),
    age(obj.metadata.creationTimestamp, now),
  ],
};

export const configMapPrinter: Printer = {
  columns: [NAME, count('Data', 'How many keys its data and binaryData hold.'), AGE],
  cells: (obj, now) => [
    obj.metadata.name ?? '',
    keys((obj as ConfigMap).data) + keys((obj as ConfigMap).binaryData),
    age(obj.metadata.creationTimestamp, now),
  ],
};

export const serviceAccountPrinter: Printer = {
  columns: [NAME, count('Secrets', 'How many secrets it lists.'), AGE],
  cells: (obj, now) => [
    obj.metadata.name ?? '',
    ((obj as ServiceAccount).secrets ?? []).length,
    age(obj.metadata.creationTimestamp, now),
  ],
};

export const servicePrinter: Printer = {
  columns: [
    NAME,
    column('Type', 'ClusterIP, NodePort, LoadBalancer or ExternalName.'),
    column('Cluster-IP', 'The virtual IP kube-proxy routes (spec.clusterIP).'),
    column('External-IP', 'Addresses the service is reachable at from outside (load balancer ingress, externalIPs).'),
    column('Port(s)', 'port[:nodePort]/protocol of each service port.'),
    AGE,
    column('Selector', 'The label selector of the pods behind the service.', 1),
  ],
  cells: (obj, now) => serviceCells(obj as Service, now),
};

export const endpointsPrinter: Printer = {
  columns: [NAME, column('Endpoints', 'The ready addresses (ip:port), at most three shown.'), AGE],
  cells: (obj, now) => [
    obj.metadata.name ?? '',
    formatEndpoints(obj as Endpoints),
    age(obj.metadata.creationTimestamp, now),
  ],
};

export const endpointSlicePrinter: Printer = {
  columns: [
    NAME,
    column('AddressType', 'IPv4, IPv6 or FQDN.'),
    column('Ports', 'The port numbers of the slice, at most three shown.'),
    column('Endpoints', 'The addresses of the endpoints, whatever their conditions, at most three shown.'),
    AGE,
  ],
  cells: (obj, now) => endpointSliceCells(obj as EndpointSlice, now),
};

export const leasePrinter: Printer = {
  columns: [NAME, column('Holder', 'Who holds the lease (spec.holderIdentity).'), AGE],
  cells: (obj, now) => [
    obj.metadata.name ?? '',
    (obj as Lease).spec?.holderIdentity ?? '',
    age(obj.metadata.creationTimestamp, now),
  ],
};

/** printers.go printPod (v1.33; the Terminating rule per release). */
function podCells(pod: Pod, now: number, release: Release): Cell[] {
  const spec = pod.spec ?? { containers: [] };
  const status = pod.status ?? {};
  let restarts = 0;
  let restartableInitRestarts = 0;
  let totalContainers = spec.containers.length;
  let readyContainers = 0;
  let lastRestart = 0;
  let lastRestartableInitRestart = 0;
  const phase = status.phase ?? '';
  let reason: string = status.reason || phase;
  for (const c of status.conditions ?? []) {
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') reason = 'SchedulingGated';
  }
  const initContainers = new Map((spec.initContainers ?? []).map((c) => [c.name, c]));
  const restartable = (name: string) => initContainers.get(name)?.restartPolicy === 'Always';
  for (const c of spec.initContainers ?? []) if (c.restartPolicy === 'Always') totalContainers++;
  const finishedAt = (cs: { lastState?: { terminated?: { finishedAt?: string } } }) => {
    const t = cs.lastState?.terminated?.finishedAt;
    return t ? fromTime(t) : 0;
  };

  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (let i = 0; i < initStatuses.length; i++) {
    const c = initStatuses[i];
    restarts += c.restartCount ?? 0;
    lastRestart = Math.max(lastRestart, finishedAt(c));
    if (restartable(c.name)) {
      restartableInitRestarts += c.restartCount ?? 0;
      lastRestartableInitRestart = Math.max(lastRestartableInitRestart, finishedAt(c));
    }
    const terminated = c.state?.terminated;
    if (terminated && terminated.exitCode === 0) continue;
    if (restartable(c.name) && c.started) {
      if (c.ready) readyContainers++;
      continue;
    }
    if (terminated) {
      reason = terminated.reason
        ? `Init:${terminated.reason}`
        : terminated.signal
          ? `Init:Signal:${terminated.signal}`
          : `Init:ExitCode:${terminated.exitCode}`;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
    }
    initializing = true;
    break;
  }

  const initializedTrue = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = restartableInitRestarts;
    lastRestart = lastRestartableInitRestart;
    let hasRunning = false;
    const statuses = status.containerStatuses ?? [];
    for (let i = statuses.length - 1; i >= 0; i--) {
      const c = statuses[i];
      restarts += c.restartCount ?? 0;
      lastRestart = Math.max(lastRestart, finishedAt(c));
      const { waiting, terminated, running } = c.state ?? {};
      if (waiting?.reason) reason = waiting.reason;
      else if (terminated?.reason) reason = terminated.reason;
      else if (terminated)
        reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
      else if (c.ready && running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    // A pod whose last-listed container completed while another still runs reads Running (or NotReady).
    if (reason === 'Completed' && hasRunning) {
      reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
        ? 'Running'
        : 'NotReady';
    }
  }

  const terminal = phase === 'Succeeded' || phase === 'Failed';
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  // Terminating, since v1.31 only while the phase is not terminal (kubernetes#122038); before, whenever deletionTimestamp is set.
  else if (pod.metadata.deletionTimestamp && (!terminal || !release.atLeast(31))) reason = 'Terminating';

  const restartsText =
    restarts !== 0 && lastRestart !== 0 ? `${restarts} (${humanDuration(now - lastRestart)} ago)` : String(restarts);
  const podIP = status.podIPs?.[0]?.ip || '<none>';
  let readinessGates = '<none>';
  if ((spec.readinessGates ?? []).length > 0) {
    const gates = spec.readinessGates ?? [];
    const trueCount = gates.filter(
      (g) => (status.conditions ?? []).find((c) => c.type === g.conditionType)?.status === 'True',
    ).length;
    readinessGates = `${trueCount}/${gates.length}`;
  }
  return [
    pod.metadata.name ?? '',
    `${readyContainers}/${totalContainers}`,
    reason,
    restartsText,
    age(pod.metadata.creationTimestamp, now),
    podIP,
    spec.nodeName || '<none>',
    status.nominatedNodeName || '<none>',
    readinessGates,
  ];
}

/** printers.go printNode with findNodeRoles. */
function nodeCells(node: Node, now: number): Cell[] {
  const ready = (node.status?.conditions ?? []).find((c) => c.type === 'Ready');
  const status = ready ? [ready.status === 'True' ? 'Ready' : 'NotReady'] : ['Unknown'];
  if (node.spec?.unschedulable) status.push('SchedulingDisabled');
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(node.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length)
      roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v !== '') roles.add(v);
  }
  const info = node.status?.nodeInfo;
  const address = (type: string) => (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
  return [
    node.metadata.name ?? '',
    status.join(','),
    [...roles].sort().join(',') || '<none>',
    age(node.metadata.creationTimestamp, now),
    info?.kubeletVersion ?? '',
    address('InternalIP'),
    address('ExternalIP'),
    info?.osImage || '<unknown>',
    info?.kernelVersion || '<unknown>',
    info?.containerRuntimeVersion || '<unknown>',
  ];
}

/** printers.go printEvent with formatEventSource. */
function eventCells(e: Event, now: number): Cell[] {
  let first = e.firstTimestamp ? age(e.firstTimestamp, now) : age(e.eventTime, now);
  if (!e.firstTimestamp && !e.eventTime) first = '<unknown>';
  let last = e.lastTimestamp ? age(e.lastTimestamp, now) : first;
  let count = e.count ?? 0;
  if (e.series) {
    last = age(e.series.lastObservedTime, now);
    count = e.series.count ?? 0;
  } else if (count === 0) count = 1;
  const io = e.involvedObject ?? {};
  const kind = (io.kind ?? '').toLowerCase();
  const target = io.name ? `${kind}/${io.name}` : kind;
  const component = e.source?.component || e.reportingComponent || '';
  const instance = e.source?.host || e.reportingInstance || '';
  const source = instance ? `${component}, ${instance}` : component;
  return [
    last,
    e.type ?? '',
    e.reason ?? '',
    target,
    io.fieldPath ?? '',
    source,
    (e.message ?? '').trim(),
    first,
    count,
    e.metadata.name ?? '',
  ];
}

/** printers.go printService with getServiceExternalIP, makePortString and labels.FormatLabels of the selector. */
function serviceCells(svc: Service, now: number): Cell[] {
  const spec = svc.spec ?? {};
  const type = spec.type ?? 'ClusterIP';
  const external = spec.externalIPs ?? [];
  let externalIP: string;
  if (type === 'ClusterIP' || type === 'NodePort') externalIP = external.length > 0 ? external.join(',') : '<none>';
  else if (type === 'LoadBalancer') {
    const ingress = (svc.status?.loadBalancer?.ingress ?? [])
      .map((i) => i.ip || i.hostname || '')
      .filter((a) => a !== '');
    const all = [...ingress, ...external];
    externalIP = all.length > 0 ? all.join(',') : '<pending>';
  } else externalIP = spec.externalName ?? '<unknown>';
  const ports = (spec.ports ?? [])
    .map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? 'TCP'}` : `${p.port}/${p.protocol ?? 'TCP'}`))
    .join(',');
  const selector =
    Object.keys(spec.selector ?? {})
      .sort()
      .map((k) => `${k}=${spec.selector![k]}`)
      .join(',') || '<none>';
  return [
    svc.metadata.name ?? '',
    type,
    spec.clusterIP || '<none>',
    externalIP,
    ports || '<none>',
    age(svc.metadata.creationTimestamp, now),
    selector,
  ];
}

/** printers.go formatEndpoints: the ready addresses as ip:port per port, three at most, then "+ N more...". */
function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let count = 0;
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    const targets =
      ports.length === 0 ? addresses.map((a) => a.ip) : ports.flatMap((p) => addresses.map((a) => `${a.ip}:${p.port}`));
    count += targets.length;
    for (const t of targets) if (list.length < max) list.push(t);
  }
  return count > max ? `${list.join(',')} + ${count - max} more...` : list.join(',');
}

/** printers.go printEndpointSlice with formatDiscoveryPorts, formatDiscoveryEndpoints and listWithMoreString. */
function endpointSliceCells(slice: EndpointSlice, now: number): Cell[] {
  const ports = (slice.ports ?? []).map((p) => (p.port !== undefined ? String(p.port) : (p.name ?? '*')));
  const addresses = (slice.endpoints ?? []).flatMap((e) => e.addresses);
  return [
    slice.metadata.name ?? '',
    slice.addressType,
    listWithMore(ports),
    listWithMore(addresses),
    age(slice.metadata.creationTimestamp, now),
  ];
}
