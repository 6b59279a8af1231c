import type {
  ControllerRevision,
  DaemonSet,
  Deployment,
  Job,
  PodDisruptionBudget,
  ReplicaSet,
  StatefulSet,
} from '../../apimachinery/types';
import { fromTime } from '../../apimachinery/object';
import type { Release } from '../../foundation/release';
import {
  AGE,
  age,
  type Cell,
  column,
  formatLabelSelector,
  humanDuration,
  NAME,
  type Printer,
  type TableColumn,
  TEMPLATE_COLUMNS,
  templateCells,
} from './printer';

export const replicaSetPrinter: Printer = {
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
};

// pkg/printers/internalversion printDeployment: NAME READY UP-TO-DATE AVAILABLE AGE, then (wide) CONTAINERS IMAGES SELECTOR.
export const deploymentPrinter: Printer = {
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
};

export const statefulSetPrinter: Printer = {
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
};

export const daemonSetPrinter: Printer = {
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
};

export const controllerRevisionPrinter: Printer = {
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
};

export const jobPrinter: Printer = {
  columns: jobColumns(true),
  columnsFor: (release) => jobColumns(release.atLeast(30)),
  cells: (obj, now, release) => jobCells(obj as Job, now, release),
};

// printPodDisruptionBudget: N/A for the bound that is not set.
export const podDisruptionBudgetPrinter: Printer = {
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
};

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
