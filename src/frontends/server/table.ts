import { fromTime, type KubeObject } from '../../apimachinery/object';
import type {
  ConfigMap,
  ControllerRevision,
  DaemonSet,
  Deployment,
  EndpointSlice,
  Endpoints,
  Event,
  Job,
  Lease,
  Namespace,
  Node,
  Pod,
  PodDisruptionBudget,
  ReplicaSet,
  Secret,
  Service,
  ServiceAccount,
  StatefulSet,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
} from '../../apimachinery/types';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import type {
  CSIDriver,
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeAttachment,
} from '../../apimachinery/types';
import { isDefaultStorageClass } from '../../apiserver/storage-admission';

/** helper.GetAccessModesAsString: the short names, in the order ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod. */
function accessModes(modes: readonly string[] | undefined): string {
  const short: [string, string][] = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short
    .filter(([m]) => modes?.includes(m))
    .map(([, s]) => s)
    .join(',');
}

/**
 * R73 — server-side printing: the metav1.Table kube-apiserver answers for
 * `Accept: application/json;as=Table;g=meta.k8s.io;v=v1`, with the columns and cells of
 * pkg/printers/internalversion/printers.go (printPod, printNode, printEvent, printReplicaSet,
 * printLease, printNamespace, printPodDisruptionBudget, printSecret, printConfigMap, printServiceAccount, printService, printEndpoints, printEndpointSlice, printValidatingWebhook, printMutatingWebhook). The server always generates the wide columns (priority 1);
 * kubectl shows them with `-o wide`. Ages are measured on the virtual clock.
 */

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

type Cell = string | number | boolean;

// Column descriptions in our own words: kube-apiserver sends the API fields' documentation here,
// which clients show nowhere in their default output (kubectl uses names and priorities only).
const NAME_DESCRIPTION = "The object's name, unique within its namespace.";
const AGE_DESCRIPTION = 'When the object was created (metadata.creationTimestamp), in UTC.';

function column(name: string, description: string, priority = 0, format = ''): TableColumn {
  return { name, type: 'string', format, description, priority };
}

const NAME = column('Name', NAME_DESCRIPTION, 0, 'name');
const AGE = column('Age', AGE_DESCRIPTION);
const count = (name: string, description: string): TableColumn => ({ ...column(name, description), type: 'integer' });
const keys = (bag: object | undefined) => Object.keys(bag ?? {}).length;
const WEBHOOKS = count('Webhooks', 'How many webhooks the configuration holds.');

/** The wide columns of a workload's pod template (layoutContainerCells) and its selector. */
const TEMPLATE_COLUMNS: TableColumn[] = [
  column('Containers', 'Container names of the pod template.', 1),
  column('Images', 'Images of the pod template.', 1),
  column('Selector', 'The label selector of its pods.', 1),
];

export interface Printer {
  columns: TableColumn[];
  /** Columns that differ by release (printJob's Status, v1.30+). */
  columnsFor?(release: Release): TableColumn[];
  cells(obj: KubeObject, now: number, release: Release): Cell[];
}

const PRINTERS: Readonly<Record<string, Printer>> = {
  pods: {
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
  },
  nodes: {
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
  },
  events: {
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
  },
  replicasets: {
    columns: [
      NAME,
      column('Desired', 'Pods the ReplicaSet asks for (spec.replicas).'),
      column('Current', 'Pods the ReplicaSet currently has (status.replicas).'),
      column('Ready', 'Its pods that are ready (status.readyReplicas).'),
      AGE,
      column('Containers', 'Container names of the pod template.', 1),
      column('Images', 'Images of the pod template.', 1),
      column('Selector', 'The label selector of its pods.', 1),
    ],
    cells: (obj, now) => replicaSetCells(obj as ReplicaSet, now),
  },
  // pkg/printers/internalversion printDeployment: NAME READY UP-TO-DATE AVAILABLE AGE, then (wide) CONTAINERS IMAGES SELECTOR.
  deployments: {
    columns: [
      NAME,
      column('Ready', 'Number of the pod with ready state'),
      column(
        'Up-to-date',
        'Total number of non-terminated pods targeted by this deployment that have the desired template spec.',
      ),
      column(
        'Available',
        'Total number of available pods (ready for at least minReadySeconds) targeted by this deployment.',
      ),
      AGE,
      ...TEMPLATE_COLUMNS,
    ],
    cells: (obj, now) => {
      const d = obj as Deployment;
      return [
        d.metadata.name ?? '',
        `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 1}`,
        d.status?.updatedReplicas ?? 0,
        d.status?.availableReplicas ?? 0,
        age(d.metadata.creationTimestamp, now),
        ...templateCells(d.spec?.template?.spec?.containers),
        formatLabelSelector(d.spec?.selector),
      ];
    },
  },
  jobs: {
    columns: jobColumns(true),
    columnsFor: (release) => jobColumns(release.atLeast(30)),
    cells: (obj, now, release) => jobCells(obj as Job, now, release),
  },
  statefulsets: {
    columns: [NAME, column('Ready', 'Ready pods out of spec.replicas.'), AGE, ...TEMPLATE_COLUMNS.slice(0, 2)],
    cells: (obj, now) => {
      const set = obj as StatefulSet;
      return [
        set.metadata.name ?? '',
        `${set.status?.readyReplicas ?? 0}/${set.spec?.replicas ?? 1}`,
        age(set.metadata.creationTimestamp, now),
        ...templateCells(set.spec?.template?.spec?.containers).slice(0, 2),
      ];
    },
  },
  daemonsets: {
    columns: [
      NAME,
      column('Desired', 'Nodes that should run the daemon pod (status.desiredNumberScheduled).'),
      column('Current', 'Nodes that run at least one daemon pod (status.currentNumberScheduled).'),
      column('Ready', 'Nodes whose daemon pod is ready (status.numberReady).'),
      column('Up-to-date', 'Nodes that run the current template (status.updatedNumberScheduled).'),
      column('Available', 'Nodes whose daemon pod is available (status.numberAvailable).'),
      column('Node Selector', "The template's spec.nodeSelector."),
      AGE,
      ...TEMPLATE_COLUMNS,
    ],
    cells: (obj, now) => {
      const ds = obj as DaemonSet;
      const st = ds.status;
      const selector = ds.spec?.template?.spec?.nodeSelector ?? {};
      const nodeSelector =
        Object.keys(selector)
          .sort()
          .map((k) => `${k}=${selector[k]}`)
          .join(',') || '<none>';
      return [
        ds.metadata.name ?? '',
        st?.desiredNumberScheduled ?? 0,
        st?.currentNumberScheduled ?? 0,
        st?.numberReady ?? 0,
        st?.updatedNumberScheduled ?? 0,
        st?.numberAvailable ?? 0,
        nodeSelector,
        age(ds.metadata.creationTimestamp, now),
        ...templateCells(ds.spec?.template?.spec?.containers),
        formatLabelSelector(ds.spec?.selector),
      ];
    },
  },
  controllerrevisions: {
    columns: [
      NAME,
      column('Controller', 'The kind/name of the object that owns the revision.'),
      column('Revision', 'The revision number.'),
      AGE,
    ],
    cells: (obj, now) => {
      const cr = obj as ControllerRevision;
      const owner = (cr.metadata.ownerReferences ?? []).find((r) => r.controller);
      const controller = owner
        ? `${owner.kind.toLowerCase()}.${owner.apiVersion.includes('/') ? owner.apiVersion.split('/')[0] : ''}/${owner.name}`
        : '<none>';
      return [cr.metadata.name ?? '', controller, cr.revision, age(cr.metadata.creationTimestamp, now)];
    },
  },
  leases: {
    columns: [NAME, column('Holder', 'Who holds the lease (spec.holderIdentity).'), AGE],
    cells: (obj, now) => [
      obj.metadata.name ?? '',
      (obj as Lease).spec?.holderIdentity ?? '',
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  // printValidatingWebhook / printMutatingWebhook: the number of webhooks.
  validatingwebhookconfigurations: { columns: [NAME, WEBHOOKS, AGE], cells: webhookConfigurationCells },
  mutatingwebhookconfigurations: { columns: [NAME, WEBHOOKS, AGE], cells: webhookConfigurationCells },
  // printValidatingAdmissionPolicy / printValidatingAdmissionPolicyBinding: the paramKind as apiVersion/kind, the paramRef as paramRefCell says.
  validatingadmissionpolicies: {
    columns: [
      NAME,
      count('Validations', 'How many validation expressions the policy has.'),
      column('ParamKind', 'The kind of the resources that parameterize the policy (apiVersion/kind).'),
      AGE,
    ],
    cells: (obj, now) => {
      const p = obj as ValidatingAdmissionPolicy;
      const paramKind = p.spec?.paramKind
        ? `${p.spec.paramKind.apiVersion ?? ''}/${p.spec.paramKind.kind ?? ''}`
        : '<unset>';
      return [
        p.metadata.name ?? '',
        (p.spec?.validations ?? []).length,
        paramKind,
        age(p.metadata.creationTimestamp, now),
      ];
    },
  },
  validatingadmissionpolicybindings: {
    columns: [
      NAME,
      column('PolicyName', 'The policy the binding applies.'),
      column('ParamRef', 'The parameter resource the binding gives the policy.'),
      AGE,
    ],
    cells: (obj, now) => {
      const b = obj as ValidatingAdmissionPolicyBinding;
      return [
        b.metadata.name ?? '',
        b.spec?.policyName ?? '',
        paramRefCell(b.spec?.paramRef),
        age(b.metadata.creationTimestamp, now),
      ];
    },
  },
  services: {
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
  },
  endpoints: {
    columns: [NAME, column('Endpoints', 'The ready addresses (ip:port), at most three shown.'), AGE],
    cells: (obj, now) => [
      obj.metadata.name ?? '',
      formatEndpoints(obj as Endpoints),
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  endpointslices: {
    columns: [
      NAME,
      column('AddressType', 'IPv4, IPv6 or FQDN.'),
      column('Ports', 'The port numbers of the slice, at most three shown.'),
      column('Endpoints', 'The addresses of the endpoints, whatever their conditions, at most three shown.'),
      AGE,
    ],
    cells: (obj, now) => endpointSliceCells(obj as EndpointSlice, now),
  },
  // printPodDisruptionBudget: N/A for the bound that is not set.
  poddisruptionbudgets: {
    columns: [
      NAME,
      column('Min Available', 'Pods that must stay available (spec.minAvailable), or N/A.'),
      column('Max Unavailable', 'Pods that may be unavailable (spec.maxUnavailable), or N/A.'),
      column('Allowed Disruptions', 'Evictions the budget allows now (status.disruptionsAllowed).'),
      AGE,
    ],
    cells: (obj, now) => {
      const pdb = obj as PodDisruptionBudget;
      return [
        obj.metadata.name ?? '',
        String(pdb.spec?.minAvailable ?? 'N/A'),
        String(pdb.spec?.maxUnavailable ?? 'N/A'),
        pdb.status?.disruptionsAllowed ?? 0,
        age(obj.metadata.creationTimestamp, now),
      ];
    },
  },
  namespaces: {
    columns: [NAME, column('Status', 'Active or Terminating.'), AGE],
    cells: (obj, now) => [
      obj.metadata.name ?? '',
      (obj as Namespace).status?.phase ?? '',
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  secrets: {
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
  },
  configmaps: {
    columns: [NAME, count('Data', 'How many keys its data and binaryData hold.'), AGE],
    cells: (obj, now) => [
      obj.metadata.name ?? '',
      keys((obj as ConfigMap).data) + keys((obj as ConfigMap).binaryData),
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  // printPersistentVolume, printPersistentVolumeClaim, printStorageClass, printCSIDriver, printCSINode, printVolumeAttachment (P7).
  persistentvolumes: {
    columns: [
      NAME,
      column('Capacity', 'The storage capacity of the volume.'),
      column('Access Modes', 'RWO, ROX, RWX, RWOP.'),
      column('Reclaim Policy', 'What happens to the volume once its claim is gone.'),
      column('Status', 'Its phase, or Terminating.'),
      column('Claim', 'namespace/name of the claim bound to it.'),
      column('StorageClass', 'StorageClass of the pv'),
      column('VolumeAttributesClass', 'VolumeAttributesClass of the pv'),
      column('Reason', 'Why the volume is in its phase.'),
      AGE,
      column('VolumeMode', 'Filesystem or Block.', 1),
    ],
    cells: (obj, now) => {
      const pv = obj as PersistentVolume;
      const claim = pv.spec?.claimRef ? `${pv.spec.claimRef.namespace ?? ''}/${pv.spec.claimRef.name ?? ''}` : '';
      const phase = pv.metadata.deletionTimestamp ? 'Terminating' : (pv.status?.phase ?? '');
      return [
        pv.metadata.name ?? '',
        String(pv.spec?.capacity?.storage ?? ''),
        accessModes(pv.spec?.accessModes),
        pv.spec?.persistentVolumeReclaimPolicy ?? '',
        phase,
        claim,
        pv.spec?.storageClassName ?? '',
        pv.spec?.volumeAttributesClassName ?? '<unset>',
        pv.status?.reason ?? '',
        age(pv.metadata.creationTimestamp, now),
        pv.spec?.volumeMode ?? '<unset>',
      ];
    },
  },
  persistentvolumeclaims: {
    columns: [
      NAME,
      column('Status', 'Its phase, or Terminating.'),
      column('Volume', 'The PersistentVolume bound to it.'),
      column('Capacity', "The bound volume's capacity."),
      column('Access Modes', "The bound volume's access modes."),
      column('StorageClass', 'StorageClass of the pvc'),
      column('VolumeAttributesClass', 'VolumeAttributesClass of the pvc'),
      AGE,
      column('VolumeMode', 'Filesystem or Block.', 1),
    ],
    cells: (obj, now) => {
      const pvc = obj as PersistentVolumeClaim;
      const phase = pvc.metadata.deletionTimestamp ? 'Terminating' : (pvc.status?.phase ?? '');
      const bound = !!pvc.spec?.volumeName;
      return [
        pvc.metadata.name ?? '',
        phase,
        pvc.spec?.volumeName ?? '',
        bound ? String(pvc.status?.capacity?.storage ?? '') : '',
        bound ? accessModes(pvc.status?.accessModes) : '',
        pvc.spec?.storageClassName ?? '',
        pvc.spec?.volumeAttributesClassName ?? '<unset>',
        age(pvc.metadata.creationTimestamp, now),
        pvc.spec?.volumeMode ?? '<unset>',
      ];
    },
  },
  storageclasses: {
    columns: [
      NAME,
      column('Provisioner', 'Who provisions its volumes.'),
      column('ReclaimPolicy', 'Delete or Retain.'),
      column('VolumeBindingMode', 'Immediate or WaitForFirstConsumer.'),
      { ...column('AllowVolumeExpansion', 'Whether its claims may grow.'), type: 'boolean' },
      AGE,
    ],
    cells: (obj, now) => {
      const sc = obj as StorageClass;
      const name = (sc.metadata.name ?? '') + (isDefaultStorageClass(sc) ? ' (default)' : '');
      return [
        name,
        sc.provisioner ?? '',
        sc.reclaimPolicy ?? 'Delete',
        sc.volumeBindingMode ?? 'Immediate',
        sc.allowVolumeExpansion ?? false,
        age(sc.metadata.creationTimestamp, now),
      ];
    },
  },
  csidrivers: {
    columns: [
      NAME,
      { ...column('AttachRequired', 'Whether volumes are attached before they are mounted.'), type: 'boolean' },
      { ...column('PodInfoOnMount', 'Whether mounts are told the pod.'), type: 'boolean' },
      { ...column('StorageCapacity', 'Whether the driver reports capacity.'), type: 'boolean' },
      column('TokenRequests', 'Audiences of service account tokens passed to the driver.'),
      { ...column('RequiresRepublish', 'Whether NodePublishVolume is called periodically.'), type: 'boolean' },
      column('Modes', 'Volume lifecycle modes.'),
      AGE,
    ],
    cells: (obj, now) => {
      const d = obj as CSIDriver;
      const modes = (d.spec?.volumeLifecycleModes ?? []).join(',');
      const audiences = (d.spec?.tokenRequests ?? []).map((t) => t.audience).join(',');
      return [
        d.metadata.name ?? '',
        d.spec?.attachRequired ?? true,
        d.spec?.podInfoOnMount ?? false,
        d.spec?.storageCapacity ?? false,
        audiences || '<unset>',
        d.spec?.requiresRepublish ?? false,
        modes || '<none>',
        age(d.metadata.creationTimestamp, now),
      ];
    },
  },
  csinodes: {
    columns: [NAME, count('Drivers', 'How many CSI drivers the node registered.'), AGE],
    cells: (obj, now) => [
      obj.metadata.name ?? '',
      ((obj as CSINode).spec?.drivers ?? []).length,
      age(obj.metadata.creationTimestamp, now),
    ],
  },
  volumeattachments: {
    columns: [
      NAME,
      column('Attacher', 'The CSI driver that attaches the volume.'),
      column('PV', 'The PersistentVolume attached.'),
      column('Node', 'The node it is attached to.'),
      { ...column('Attached', 'Whether the attacher has attached it (status.attached).'), type: 'boolean' },
      AGE,
    ],
    cells: (obj, now) => {
      const va = obj as VolumeAttachment;
      return [
        va.metadata.name ?? '',
        va.spec?.attacher ?? '',
        va.spec?.source?.persistentVolumeName ?? '',
        va.spec?.nodeName ?? '',
        va.status?.attached ?? false,
        age(va.metadata.creationTimestamp, now),
      ];
    },
  },
  serviceaccounts: {
    columns: [NAME, count('Secrets', 'How many secrets it lists.'), AGE],
    cells: (obj, now) => [
      obj.metadata.name ?? '',
      ((obj as ServiceAccount).secrets ?? []).length,
      age(obj.metadata.creationTimestamp, now),
    ],
  },
};

function webhookConfigurationCells(obj: KubeObject, now: number): Cell[] {
  return [
    obj.metadata.name ?? '',
    ((obj as { webhooks?: unknown[] }).webhooks ?? []).length,
    age(obj.metadata.creationTimestamp, now),
  ];
}

/**
 * A metav1.Table of `objects` (stored form) for `resource`. `noHeaders` leaves the column
 * definitions out (every watch event after the first, handlers/watch.go); `includeObject`
 * is the query's includeObject (None, Metadata — the default — or Object).
 */
export function toTable(
  resource: string,
  objects: readonly KubeObject[],
  options: {
    now: number;
    release?: Release;
    resourceVersion?: string;
    continue?: string;
    remainingItemCount?: number;
    noHeaders?: boolean;
    includeObject?: string;
    served?: (o: KubeObject) => KubeObject;
    printer?: Printer;
  },
): object {
  const printer = options.printer ?? PRINTERS[resource];
  const columns = printer?.columnsFor?.(options.release ?? DEFAULT_RELEASE) ??
    printer?.columns ?? [NAME, column('Created At', AGE_DESCRIPTION, 0, 'date')];
  const rows = objects.map((obj) => {
    const row = rowWithoutObject(resource, obj, options, printer);
    const object = rowObject(obj, options.includeObject, options.served);
    if (object) row.object = object;
    return row;
  });
  const metadata: Record<string, unknown> = {};
  if (options.resourceVersion !== undefined) metadata.resourceVersion = options.resourceVersion;
  if (options.continue !== undefined) metadata.continue = options.continue;
  if (options.remainingItemCount !== undefined) metadata.remainingItemCount = options.remainingItemCount;
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata,
    ...(options.noHeaders ? {} : { columnDefinitions: columns }),
    rows,
  };
}

/** A TableRow's cells and conditions (its object is added by the caller). */
function rowWithoutObject(
  resource: string,
  obj: KubeObject,
  options: { now: number; release?: Release },
  printer: Printer | undefined = PRINTERS[resource],
): Record<string, unknown> {
  const cells = printer
    ? printer.cells(obj, options.now, options.release ?? DEFAULT_RELEASE)
    : [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? ''];
  const row: Record<string, unknown> = { cells };
  const conditions = rowConditions(resource, obj);
  if (conditions) row.conditions = conditions;
  return row;
}

/**
 * The JSON of a TableRow whose object is PartialObjectMetadata (includeObject unset or Metadata),
 * given that object's JSON already encoded: the bytes of JSON.stringify of toTable's row, for a
 * Table LIST written item by item (list-encoding.ts).
 */
export function encodedTableRow(
  resource: string,
  obj: KubeObject,
  partialMetadata: Buffer,
  options: { now: number; release?: Release; printer?: Printer },
): Buffer {
  const row = JSON.stringify(rowWithoutObject(resource, obj, options, options.printer));
  return Buffer.concat([Buffer.from(`${row.slice(0, -1)},"object":`), partialMetadata, CLOSE_BRACE]);
}
const CLOSE_BRACE = Buffer.from('}');

/** TableRow.object per includeObject: PartialObjectMetadata by default (rest/table.go, handlers/response.go). */
function rowObject(
  obj: KubeObject,
  includeObject: string | undefined,
  served?: (o: KubeObject) => KubeObject,
): unknown {
  if (includeObject === 'None') return undefined;
  if (includeObject === 'Object') return served ? served(obj) : obj;
  return partialObjectMetadata(obj);
}

/** The PartialObjectMetadata of an object (a Table row's default object, a PartialObjectMetadataList item). */
export function partialObjectMetadata(obj: KubeObject): object {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: obj.metadata };
}

/** printPod marks Succeeded and Failed pods' rows with a Completed condition (podSuccessConditions, podFailedConditions). */
function rowConditions(resource: string, obj: KubeObject): object[] | undefined {
  if (resource !== 'pods') return undefined;
  const phase = (obj as Pod).status?.phase;
  if (phase === 'Succeeded')
    return [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }];
  if (phase === 'Failed') return [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }];
  return undefined;
}

/** duration.HumanDuration (apimachinery/pkg/util/duration): how kubectl-facing ages read. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${Math.trunc(hours / 24 / 365)}y` : `${Math.trunc(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** printers.go translateTimestampSince: `<unknown>` for a zero time. */
function age(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  return humanDuration(now - fromTime(timestamp));
}

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

/** printers.go printReplicaSet with layoutContainerCells and metav1.FormatLabelSelector. */
function replicaSetCells(rs: ReplicaSet, now: number): Cell[] {
  const containers = rs.spec?.template?.spec?.containers ?? [];
  return [
    rs.metadata.name ?? '',
    rs.spec?.replicas ?? 1,
    rs.status?.replicas ?? 0,
    rs.status?.readyReplicas ?? 0,
    age(rs.metadata.creationTimestamp, now),
    containers.map((c) => c.name).join(','),
    containers.map((c) => c.image ?? '').join(','),
    formatLabelSelector(rs.spec?.selector),
  ];
}

/** metav1.FormatLabelSelector: `<none>` for none, `<error>` never here. */
function formatLabelSelector(
  selector:
    | {
        matchLabels?: Record<string, string>;
        matchExpressions?: { key: string; operator: string; values?: string[] }[];
      }
    | undefined,
): string {
  if (!selector) return '<none>';
  const parts = Object.keys(selector.matchLabels ?? {})
    .sort()
    .map((k) => `${k}=${selector.matchLabels![k]}`);
  for (const e of selector.matchExpressions ?? []) {
    const op = e.operator === 'In' ? 'in' : e.operator === 'NotIn' ? 'notin' : e.operator;
    if (op === 'Exists') parts.push(e.key);
    else if (op === 'DoesNotExist') parts.push(`!${e.key}`);
    else parts.push(`${e.key} ${op} (${[...(e.values ?? [])].sort().join(',')})`);
  }
  const text = parts.join(',');
  return text === '' ? '<none>' : text;
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

function listWithMore(items: readonly string[], max = 3): string {
  const text = items.slice(0, max).join(',');
  if (items.length > max) return `${text} + ${items.length - max} more...`;
  return text === '' ? '<unset>' : text;
}

function templateCells(containers: readonly { name: string; image?: string }[] | undefined): Cell[] {
  return [(containers ?? []).map((c) => c.name).join(','), (containers ?? []).map((c) => c.image ?? '').join(',')];
}

/** printJob's columns: Status came with v1.30 (kubernetes#123226). */
function jobColumns(withStatus: boolean): TableColumn[] {
  return [
    NAME,
    ...(withStatus
      ? [column('Status', 'Complete, Failed, Terminating, Suspended, FailureTarget or Running, from the conditions.')]
      : []),
    column('Completions', 'Succeeded pods out of spec.completions.'),
    column('Duration', 'From status.startTime to status.completionTime (or now).'),
    AGE,
    ...TEMPLATE_COLUMNS,
  ];
}

/** printers.go printJob: completions as `S/N`, `S/1 of P` without completions; the duration; the status from the conditions. */
function jobCells(job: Job, now: number, release: Release): Cell[] {
  const spec = job.spec;
  const st = job.status ?? {};
  const succeeded = st.succeeded ?? 0;
  let completions: string;
  if (spec?.completions !== undefined && spec.completions !== null) completions = `${succeeded}/${spec.completions}`;
  else completions = (spec?.parallelism ?? 0) > 1 ? `${succeeded}/1 of ${spec!.parallelism}` : `${succeeded}/1`;
  let duration = '';
  if (st.startTime)
    duration = humanDuration((st.completionTime ? fromTime(st.completionTime) : now) - fromTime(st.startTime));
  const has = (type: string) => (st.conditions ?? []).some((c) => c.type === type && c.status === 'True');
  const status = has('Complete')
    ? 'Complete'
    : has('Failed')
      ? 'Failed'
      : job.metadata.deletionTimestamp
        ? 'Terminating'
        : has('Suspended')
          ? 'Suspended'
          : has('FailureTarget')
            ? 'FailureTarget'
            : 'Running';
  const cells: Cell[] = [job.metadata.name ?? ''];
  if (release.atLeast(30)) cells.push(status);
  cells.push(
    completions,
    duration,
    age(job.metadata.creationTimestamp, now),
    ...templateCells(spec?.template?.spec?.containers),
    formatLabelSelector(spec?.selector),
  );
  return cells;
}

/**
 * printValidatingAdmissionPolicyBinding's ParamRef: NAMESPACE/NAME, the name under a `*` namespace without one
 * (the printer cannot tell a cluster-scoped param), a selector as its generated protobuf String()
 * prints it, else `<unset>`.
 */
function paramRefCell(ref: NonNullable<ValidatingAdmissionPolicyBinding['spec']>['paramRef']): string {
  if (ref === undefined) return '<unset>';
  if (ref.name) return `${ref.namespace || '*'}/${ref.name}`;
  if (ref.selector === undefined) return '<unset>';
  const labels = ref.selector.matchLabels ?? {};
  const matchLabels = Object.keys(labels)
    .sort()
    .map((k) => `${k}: ${labels[k]},`)
    .join('');
  const expressions = (ref.selector.matchExpressions ?? [])
    .map(
      (e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`,
    )
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${matchLabels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}
