import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';

/**
 * Reads what `kubectl get pods,nodes,events,… -o yaml` (or `-o json`) prints — one object, a
 * `List`, several YAML documents, several files — into the objects a resumed cluster is built
 * from (src/planning/restore/restore.ts). Everything a real cluster wrote is kept: uid, timestamps,
 * deletionGracePeriodSeconds, finalizers, ownerReferences, status. Each field the simulation reads
 * is checked here, so that an object that cannot be used is one error naming the file, the
 * document, the object and the field (and its line).
 */

export type Obj = Record<string, unknown>;

/** One object read, with where it was. */
export interface DumpObject {
  kind: string;
  apiVersion: string;
  obj: Obj;
  name: string;
  namespace?: string;
  /** `FILE: document N[, items[I]] (Kind "name")`, for messages. */
  where: string;
}

export interface Dump {
  files: string[];
  objects: DumpObject[];
  /** The newest moment the objects show (see newestTimestamp); undefined when they carry no time at all. */
  newestMs?: number;
}

/** An object that cannot be used: the message names the file, the document, the object and the field. */
export class DumpError extends Error {}

/** The kinds a resumed cluster stores, with the apiVersions kubectl prints for them. */
export const STORED_KINDS: Readonly<Record<string, readonly string[]>> = {
  Pod: ['v1'],
  Node: ['v1'],
  Namespace: ['v1'],
  Event: ['v1', 'events.k8s.io/v1'],
  Lease: ['coordination.k8s.io/v1'],
  ReplicaSet: ['apps/v1'],
};

const CLUSTER_SCOPED = new Set(['Node', 'Namespace']);

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads the files (YAML or JSON) in order. */
export function readDumpFiles(paths: readonly string[]): Dump {
  return readDump(
    paths.map((file) => {
      try {
        return { file, text: readFileSync(file, 'utf8') };
      } catch (e) {
        throw new DumpError(`cannot read ${file}: ${(e as Error).message}`);
      }
    }),
  );
}

export function readDump(sources: readonly { file: string; text: string }[]): Dump {
  const objects: DumpObject[] = [];
  for (const { file, text } of sources) objects.push(...readSource(file, text));
  if (objects.length === 0)
    throw new DumpError(
      `${sources.map((s) => s.file).join(', ') || 'no file'}: no objects (expected what kubectl get -o yaml or -o json prints)`,
    );
  const seen = new Map<string, string>();
  for (const o of objects) {
    const key = `${o.kind}/${o.namespace ?? ''}/${o.name}`;
    const first = seen.get(key);
    if (first) throw new DumpError(`${o.where}: the same ${o.kind} appears twice (first at ${first})`);
    seen.set(key, o.where);
  }
  return { files: sources.map((s) => s.file), objects, newestMs: newestTimestamp(objects.map((o) => o.obj)) };
}

function readSource(file: string, text: string): DumpObject[] {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true });
  const out: DumpObject[] = [];
  const lineOf = (doc: Document, path: (string | number)[]): string => {
    for (let p = path; ; p = p.slice(0, -1)) {
      const node = doc.getIn(p, true) as { range?: [number, number, number] } | undefined;
      const offset = node?.range?.[0] ?? (p.length === 0 ? doc.contents?.range?.[0] : undefined);
      if (offset !== undefined) return `, line ${lines.linePos(offset).line}`;
      if (p.length === 0) return '';
    }
  };
  (Array.isArray(docs) ? docs : [docs]).forEach((doc, i) => {
    const docWhere = `${file}: document ${i + 1}`;
    const err = doc.errors[0];
    if (err)
      throw new DumpError(
        `${docWhere}, line ${lines.linePos(err.pos[0]).line}: malformed ${text.trimStart().startsWith('{') ? 'JSON' : 'YAML'}: ${err.message.split('\n')[0]}`,
      );
    if (doc.contents === null) return;
    const top = doc.toJS() as unknown;
    if (!isObject(top))
      throw new DumpError(
        `${docWhere}: expected an object (apiVersion, kind, metadata, …), got ${JSON.stringify(top)}`,
      );
    const add = (value: unknown, path: (string | number)[]) => {
      const at = path.length > 0 ? `${docWhere}, ${path[0]}[${path[1]}]` : docWhere;
      out.push(checkObject(value, at, (field) => lineOf(doc, [...path, ...field])));
    };
    if (typeof top.kind === 'string' && top.kind.endsWith('List')) {
      if (!Array.isArray(top.items)) throw new DumpError(`${docWhere}: a ${top.kind} needs a list of items`);
      top.items.forEach((item, j) => add(item, ['items', j]));
    } else add(top, []);
  });
  return out;
}

type Check = { test: (v: unknown) => boolean; expected: string };
const string: Check = { test: (v) => typeof v === 'string', expected: 'a string' };
const time: Check = {
  test: (v) => typeof v === 'string' && RFC3339.test(v) && !Number.isNaN(Date.parse(v)),
  expected: 'an RFC 3339 time (e.g. 2025-06-01T10:00:00Z)',
};
const int: Check = { test: (v) => Number.isInteger(v), expected: 'an integer' };
const strings: Check = {
  test: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  expected: 'a list of strings',
};
const list: Check = { test: Array.isArray, expected: 'a list' };
const object: Check = { test: isObject, expected: 'an object' };

/** The fields the simulation reads, per kind ('*' applies to every kind); `[]` in a path walks a list. */
const FIELDS: Readonly<Record<string, [string, Check][]>> = {
  '*': [
    ['metadata.uid', string],
    ['metadata.namespace', string],
    ['metadata.creationTimestamp', time],
    ['metadata.deletionTimestamp', time],
    ['metadata.deletionGracePeriodSeconds', int],
    ['metadata.finalizers', strings],
    ['metadata.labels', object],
    ['metadata.annotations', object],
    ['metadata.ownerReferences', list],
    ['metadata.ownerReferences[].kind', string],
    ['metadata.ownerReferences[].name', string],
    ['metadata.ownerReferences[].uid', string],
  ],
  Pod: [
    ['spec', object],
    ['spec.nodeName', string],
    ['spec.terminationGracePeriodSeconds', int],
    [
      'spec.containers',
      {
        test: (v) => Array.isArray(v) && v.length > 0 && v.every((c) => isObject(c) && typeof c.name === 'string'),
        expected: 'a non-empty list of containers, each with a name',
      },
    ],
    [
      'spec.volumes',
      {
        test: (v) => Array.isArray(v) && v.every((c) => isObject(c) && typeof c.name === 'string'),
        expected: 'a list of volumes, each with a name',
      },
    ],
    [
      'status.phase',
      {
        test: (v) => ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'].includes(v as string),
        expected: 'Pending, Running, Succeeded, Failed or Unknown',
      },
    ],
    ['status.containerStatuses', list],
    ['status.containerStatuses[].name', string],
    ['status.containerStatuses[].restartCount', int],
    ['status.containerStatuses[].state.running.startedAt', time],
    ['status.containerStatuses[].state.terminated.exitCode', int],
    ['status.containerStatuses[].state.terminated.finishedAt', time],
    ['status.initContainerStatuses', list],
    ['status.conditions', list],
  ],
  Node: [
    ['spec.taints', list],
    ['spec.taints[].key', string],
    [
      'spec.taints[].effect',
      {
        test: (v) => ['NoSchedule', 'PreferNoSchedule', 'NoExecute'].includes(v as string),
        expected: 'NoSchedule, PreferNoSchedule or NoExecute',
      },
    ],
    ['status.conditions', list],
    ['status.conditions[].type', string],
    [
      'status.conditions[].status',
      { test: (v) => ['True', 'False', 'Unknown'].includes(v as string), expected: 'True, False or Unknown' },
    ],
    ['status.conditions[].lastHeartbeatTime', time],
  ],
  Lease: [
    ['spec.renewTime', time],
    ['spec.leaseDurationSeconds', int],
  ],
  Event: [
    ['reason', string],
    ['involvedObject', object],
    ['regarding', object],
  ],
};

/** Values at a dotted path with `[]` steps, each with its concrete path (for the line and the message). */
function valuesAt(obj: unknown, path: string): { value: unknown; at: (string | number)[] }[] {
  let found: { value: unknown; at: (string | number)[] }[] = [{ value: obj, at: [] }];
  for (const step of path.split('.')) {
    const each = step.endsWith('[]');
    const key = each ? step.slice(0, -2) : step;
    const next: typeof found = [];
    for (const f of found) {
      if (!isObject(f.value) || f.value[key] === undefined || f.value[key] === null) continue;
      const v = f.value[key];
      if (!each) next.push({ value: v, at: [...f.at, key] });
      else if (Array.isArray(v)) v.forEach((x, i) => next.push({ value: x, at: [...f.at, key, i] }));
    }
    found = next;
  }
  return found;
}

const dotted = (at: (string | number)[]): string =>
  at.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? k : `.${k}`)).join('');

function checkObject(value: unknown, at: string, lineOf: (field: (string | number)[]) => string): DumpObject {
  if (!isObject(value))
    throw new DumpError(
      `${at}${lineOf([])}: expected an object (apiVersion, kind, metadata, …), got ${JSON.stringify(value)}`,
    );
  const { kind, apiVersion } = value;
  if (typeof kind !== 'string' || kind === '') throw new DumpError(`${at}${lineOf([])}: the object has no kind`);
  if (typeof apiVersion !== 'string') throw new DumpError(`${at}${lineOf(['kind'])}: ${kind} has no apiVersion`);
  const metadata = value.metadata;
  if (!isObject(metadata) || typeof metadata.name !== 'string' || metadata.name === '')
    throw new DumpError(`${at}${lineOf(['metadata'])}: the ${kind} has no metadata.name`);
  const where = `${at} (${kind} "${metadata.name}")`;
  const versions = STORED_KINDS[kind];
  if (versions && !versions.includes(apiVersion))
    throw new DumpError(
      `${where}${lineOf(['apiVersion'])}: field apiVersion: ${kind} is served as ${versions.join(' or ')}, not "${apiVersion}"`,
    );
  if (versions) {
    for (const [path, check] of [...FIELDS['*'], ...(FIELDS[kind] ?? [])]) {
      for (const { value: v, at: field } of valuesAt(value, path)) {
        if (!check.test(v))
          throw new DumpError(
            `${where}${lineOf(field)}: field ${dotted(field)} must be ${check.expected}, got ${JSON.stringify(v)}`,
          );
      }
    }
    if (
      metadata.deletionTimestamp !== undefined &&
      metadata.deletionGracePeriodSeconds === undefined &&
      kind === 'Pod'
    ) {
      throw new DumpError(
        `${where}${lineOf(['metadata', 'deletionTimestamp'])}: field metadata.deletionGracePeriodSeconds is missing: a deleted object carries both (the apiserver sets them together)`,
      );
    }
  }
  const namespace = CLUSTER_SCOPED.has(kind)
    ? undefined
    : typeof metadata.namespace === 'string'
      ? metadata.namespace
      : versions
        ? 'default'
        : undefined;
  return { kind, apiVersion, obj: value, name: metadata.name, namespace, where };
}

/** Time fields that say when something was observed or done (the deletionTimestamp is a deadline: see newestTimestamp). */
const OBSERVED_TIMES = new Set([
  'creationTimestamp',
  'time',
  'lastTransitionTime',
  'lastHeartbeatTime',
  'lastProbeTime',
  'startedAt',
  'finishedAt',
  'startTime',
  'renewTime',
  'acquireTime',
  'firstTimestamp',
  'lastTimestamp',
  'eventTime',
  'lastObservedTime',
  'timeAdded',
]);

/**
 * X2 — the newest moment the objects show: the latest observed time anywhere in them (heartbeats,
 * transitions, container starts and ends, lease renewals, Events, managedFields), and for a
 * deleted object the moment of its DELETE (deletionTimestamp − deletionGracePeriodSeconds). The
 * deletionTimestamp itself is not an observation: since the graceful-deletion rules it is the
 * DELETE plus the grace period, a deadline that may still lie ahead.
 */
export function newestTimestamp(objects: readonly unknown[]): number | undefined {
  let newest: number | undefined;
  const see = (ms: number) => {
    if (!Number.isNaN(ms) && (newest === undefined || ms > newest)) newest = ms;
  };
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObject(v)) return;
    for (const k in v) {
      const x = v[k];
      if (typeof x === 'string' && OBSERVED_TIMES.has(k) && RFC3339.test(x)) see(Date.parse(x));
      else walk(x);
    }
    const dt = v.deletionTimestamp;
    if (typeof dt === 'string' && Number.isInteger(v.deletionGracePeriodSeconds))
      see(Date.parse(dt) - (v.deletionGracePeriodSeconds as number) * 1000);
  };
  objects.forEach(walk);
  return newest;
}
