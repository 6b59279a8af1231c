import { fromTime, type KubeObject } from '../../apimachinery/object';
import type { Release } from '../../foundation/release';

/**
 * R73 — server-side printing: the columns and cells of pkg/printers/internalversion/printers.go
 * for each built-in kind (each kind module names its printer; the Table itself is built by
 * frontends/server/table.ts). The server always generates the wide columns (priority 1); kubectl
 * shows them with `-o wide`. Ages are measured on the virtual clock.
 */

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export type Cell = string | number | boolean;

export interface Printer {
  columns: TableColumn[];
  /** Columns that differ by release (printJob's Status, v1.30+). */
  columnsFor?(release: Release): TableColumn[];
  cells(obj: KubeObject, now: number, release: Release): Cell[];
  /** The row's conditions (printPod marks a finished pod's row Completed). */
  conditions?(obj: KubeObject): object[] | undefined;
}

// Column descriptions in our own words: kube-apiserver sends the API fields' documentation here,
// which clients show nowhere in their default output (kubectl uses names and priorities only).
export const NAME_DESCRIPTION = "The object's name, unique within its namespace.";
export const AGE_DESCRIPTION = 'When the object was created (metadata.creationTimestamp), in UTC.';

export function column(name: string, description: string, priority = 0, format = ''): TableColumn {
  return { name, type: 'string', format, description, priority };
}

export const NAME = column('Name', NAME_DESCRIPTION, 0, 'name');
export const AGE = column('Age', AGE_DESCRIPTION);
export const count = (name: string, description: string): TableColumn => ({
  ...column(name, description),
  type: 'integer',
});
export const keys = (bag: object | undefined) => Object.keys(bag ?? {}).length;

/** The wide columns of a workload's pod template (layoutContainerCells) and its selector. */
export const TEMPLATE_COLUMNS: TableColumn[] = [
  column('Containers', 'Container names of the pod template.', 1),
  column('Images', 'Images of the pod template.', 1),
  column('Selector', 'The label selector of its pods.', 1),
];

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
export function age(timestamp: string | undefined, now: number): string {
  if (!timestamp) return '<unknown>';
  return humanDuration(now - fromTime(timestamp));
}

/** metav1.FormatLabelSelector: `<none>` for none, `<error>` never here. */
export function formatLabelSelector(
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

export function listWithMore(items: readonly string[], max = 3): string {
  const text = items.slice(0, max).join(',');
  if (items.length > max) return `${text} + ${items.length - max} more...`;
  return text === '' ? '<unset>' : text;
}

export function templateCells(containers: readonly { name: string; image?: string }[] | undefined): Cell[] {
  return [(containers ?? []).map((c) => c.name).join(','), (containers ?? []).map((c) => c.image ?? '').join(',')];
}

/** helper.GetAccessModesAsString: the short names, in the order ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod. */
export function accessModes(modes: readonly string[] | undefined): string {
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
