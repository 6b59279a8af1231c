import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import { ClusterPlan, PlanError } from './cluster-plan';
import { ManifestError } from './manifest';
import {
  ANNOTATION_PREFIX,
  BehaviourValueError,
  behaviourAnnotations as prefixed,
  parseBehaviour,
  POD_ANNOTATIONS,
  type PodAnnotation,
} from './pod-behaviours';
import { Release } from '../foundation/release';

/**
 * Loads a cluster from a manifest file — Nodes, Pods and ReplicaSets as `kubectl get -o yaml`
 * prints them (several YAML documents, or a List) — into a ClusterPlan, the loader the Given steps
 * use. How containers and volumes behave is given in annotations with the ANNOTATION_PREFIX.
 *
 * What a real cluster adds is dropped: status (the simulated kubelet reports its own), uid,
 * resourceVersion, creationTimestamp, generation, managedFields, selfLink and any deletion
 * timestamp (the objects start alive). A pod's ownerReference to a ReplicaSet of the same file is
 * kept (re-pointed at its new uid); references to other owners are dropped, since the garbage
 * collector would delete a pod whose owner does not exist. A Node is its name and annotations:
 * the simulated kubelet registers and reports it. Everything lives in namespace `default`.
 */

export { ANNOTATION_PREFIX };

/** One clear error naming the file, the document and the line. */
export class ManifestFileError extends Error {}

type Obj = Record<string, unknown>;

/** One object of the file: where it is (its document, the path inside it) and what it is. */
interface Entry {
  obj: Obj;
  kind: string;
  name: string;
  doc: Document;
  docNumber: number;
  path: (string | number)[];
}

const API_VERSIONS: Record<string, string> = { Node: 'v1', Pod: 'v1', ReplicaSet: 'apps/v1', Service: 'v1' };

/** Fields a real cluster fills in that a new object cannot carry. */
const SERVER_SET_METADATA = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'generation',
  'managedFields',
  'selfLink',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'ownerReferences',
];

/** The node annotations: the key after the prefix and the accepted values (the pod ones: src/planning/pod-behaviours.ts). */
const NODE_ANNOTATIONS = {
  unreachable: '`true` or `false`',
  kubernetes: 'the release of its kubelet, 1.NN (e.g. 1.32), within the version skew policy',
} as const;

function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function loadManifestFile(file: string, plan: ClusterPlan): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ManifestFileError(`cannot read ${file}: ${(e as Error).message}`);
  }
  planManifests(text, file, plan);
}

/** Adds every object of `text` (the contents of `file`) to the plan. */
export function planManifests(text: string, file: string, plan: ClusterPlan): void {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: true, uniqueKeys: true });
  const entries: Entry[] = [];
  const fail = (docNumber: number, offset: number | undefined, message: string): never => {
    const line = offset === undefined ? '' : `, line ${lines.linePos(offset).line}`;
    throw new ManifestFileError(`${file}: document ${docNumber}${line}: ${message}`);
  };
  /** The line of the node at `path` in `e`'s document (or of the object itself). */
  const at = (e: Entry, path: (string | number)[] = []): number | undefined => {
    for (let p = [...e.path, ...path]; ; p = p.slice(0, -1)) {
      const node = e.doc.getIn(p, true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return node.range[0];
      if (p.length === 0) return e.doc.contents?.range?.[0];
    }
  };
  const wrap = (e: Entry, path: (string | number)[], f: () => void): void => {
    try {
      f();
    } catch (err) {
      const where = err instanceof ManifestError && err.field ? err.field.split('.') : path;
      if (err instanceof PlanError || err instanceof ManifestError)
        fail(e.docNumber, at(e, where), `${e.kind} "${e.name}": ${err.message}`);
      throw err;
    }
  };

  // 1. Read every document into entries (a List's items are entries of their own).
  docs.forEach((doc, i) => {
    const docNumber = i + 1;
    const err = doc.errors[0];
    if (err) fail(docNumber, err.pos[0], `malformed YAML: ${err.message.split('\n')[0]}`);
    if (doc.contents === null) return; // an empty document (e.g. after a trailing ---)
    const value = doc.toJS() as unknown;
    if (!isObject(value))
      fail(
        docNumber,
        doc.contents.range[0],
        `expected an object (apiVersion, kind, metadata, …), got ${JSON.stringify(value)}`,
      );
    const top = value as Obj;
    if (typeof top.kind === 'string' && top.kind.endsWith('List')) {
      if (!Array.isArray(top.items)) fail(docNumber, doc.contents.range[0], `a ${top.kind} needs a list of items`);
      (top.items as unknown[]).forEach((item, j) => entries.push(entry(item, doc, docNumber, ['items', j])));
    } else entries.push(entry(top, doc, docNumber, []));
  });

  function entry(value: unknown, doc: Document, docNumber: number, path: (string | number)[]): Entry {
    const partial = { doc, docNumber, path, kind: '?', name: '?', obj: {} };
    if (!isObject(value))
      return fail(
        docNumber,
        at(partial),
        `expected an object (apiVersion, kind, metadata, …), got ${JSON.stringify(value)}`,
      );
    const e: Entry = { ...partial, obj: value };
    const { kind, apiVersion } = value;
    if (typeof kind !== 'string')
      return fail(
        docNumber,
        at(e),
        'the object has no kind (expected Node, Pod, ReplicaSet or Service, or a List of them)',
      );
    const expected = API_VERSIONS[kind];
    if (!expected)
      return fail(
        docNumber,
        at(e, ['kind']),
        `unknown kind "${kind}": a manifest file holds Nodes, Pods, ReplicaSets and Services (or a List of them)`,
      );
    if (apiVersion !== undefined && apiVersion !== expected)
      return fail(
        docNumber,
        at(e, ['apiVersion']),
        `no matches for kind "${kind}" in version "${String(apiVersion)}" (expected ${expected})`,
      );
    const metadata = isObject(value.metadata) ? value.metadata : {};
    if (typeof metadata.name !== 'string' || metadata.name === '')
      return fail(docNumber, at(e, ['metadata']), `the ${kind} has no metadata.name`);
    e.kind = kind;
    e.name = metadata.name;
    if (kind !== 'Node' && metadata.namespace !== undefined && metadata.namespace !== 'default') {
      return fail(
        docNumber,
        at(e, ['metadata', 'namespace']),
        `${kind} "${e.name}" is in namespace "${String(metadata.namespace)}": the simulated cluster has only namespace "default"`,
      );
    }
    return e;
  }

  const ofKind = (kind: string) => entries.filter((e) => e.kind === kind);

  // 2. Nodes, then ReplicaSets, then Pods (whatever their order in the file), then behaviours and ownership.
  for (const e of ofKind('Node')) {
    wrap(e, ['metadata', 'name'], () => plan.node(e.name));
    for (const [key, value] of behaviourAnnotations(e, NODE_ANNOTATIONS)) {
      if (key === `${ANNOTATION_PREFIX}kubernetes`) {
        let minor = 0;
        try {
          minor = Release.parse(value).minor;
        } catch (err) {
          fail(
            e.docNumber,
            at(e, ['metadata', 'annotations', key]),
            `Node "${e.name}": annotation ${key}: ${(err as Error).message}`,
          );
        }
        wrap(e, ['metadata', 'annotations', key], () => plan.kubeletKubernetes(e.name, minor));
      } else if (value === 'true') plan.nodeUnreachable(e.name);
      else if (value !== 'false') badValue(e, key, NODE_ANNOTATIONS.unreachable);
    }
  }
  for (const e of ofKind('ReplicaSet')) {
    behaviourAnnotations(e, {});
    wrap(e, [], () => plan.replicaSet(e.name, newObject(e.obj)));
  }
  for (const e of ofKind('Service')) {
    behaviourAnnotations(e, {});
    wrap(e, [], () => plan.service(e.name, newObject(e.obj)));
  }
  const replicaSets = new Set(ofKind('ReplicaSet').map((e) => e.name));
  for (const e of ofKind('Pod')) {
    const spec = isObject(e.obj.spec) ? e.obj.spec : {};
    const nodeName = spec.nodeName;
    if (nodeName !== undefined && typeof nodeName !== 'string')
      fail(e.docNumber, at(e, ['spec', 'nodeName']), `Pod "${e.name}": spec.nodeName must be a string`);
    if (typeof nodeName === 'string' && !ofKind('Node').some((n) => n.name === nodeName)) {
      fail(
        e.docNumber,
        at(e, ['spec', 'nodeName']),
        `Pod "${e.name}" runs on node "${nodeName}", which the file does not define (add a Node named "${nodeName}")`,
      );
    }
    const behaviours = behaviourAnnotations(e, POD_ANNOTATIONS);
    wrap(e, [], () => plan.pod(e.name, nodeName as string | undefined, newObject(e.obj)));
    const refs = (e.obj.metadata as Obj).ownerReferences;
    (Array.isArray(refs) ? refs : []).forEach((ref: unknown, i) => {
      if (!isObject(ref) || ref.kind !== 'ReplicaSet') return;
      if (typeof ref.name !== 'string' || !replicaSets.has(ref.name)) {
        fail(
          e.docNumber,
          at(e, ['metadata', 'ownerReferences', i]),
          `Pod "${e.name}" is owned by ReplicaSet ${JSON.stringify(ref.name)}, which the file does not define (the garbage collector would delete the pod at once)`,
        );
      }
      wrap(e, ['metadata', 'ownerReferences', i], () =>
        plan.ownership(e.name, ref.name as string, ref.blockOwnerDeletion === true),
      );
    });
    for (const [key, value, target] of behaviours) {
      const path = ['metadata', 'annotations', key];
      const what = key.slice(ANNOTATION_PREFIX.length).split('.')[0] as PodAnnotation;
      let parsed;
      try {
        parsed = parseBehaviour(what, value);
      } catch (err) {
        if (err instanceof BehaviourValueError) badValue(e, key, err.message);
        throw err;
      }
      if ('volume' in parsed) wrap(e, path, () => plan.volumeBehaviour(target, e.name, parsed.volume));
      else if (parsed.container.preStopMs !== undefined)
        wrap(e, path, () => plan.preStop(target, e.name, parsed.container.preStopMs!));
      else wrap(e, path, () => plan.containerBehaviour(target, e.name, parsed.container));
    }
  }

  /** The object as a new one: no status, none of the metadata a server sets, owners re-linked by the plan. */
  function newObject(obj: Obj): Obj {
    const { status: _status, ...rest } = obj;
    const metadata = { ...(rest.metadata as Obj) };
    for (const k of SERVER_SET_METADATA) delete metadata[k];
    return { ...rest, metadata };
  }

  /** The object's annotations under the prefix: [key, value, the container or volume it names]; unknown keys are errors. */
  function behaviourAnnotations(e: Entry, known: Record<string, string>): [string, string, string][] {
    const annotations = (e.obj.metadata as Obj).annotations;
    if (!isObject(annotations)) return [];
    const out: [string, string, string][] = [];
    for (const { key, what, target, extra, value } of prefixed(annotations)) {
      const takesTarget = e.kind === 'Pod';
      if (!(what in known) || extra || (takesTarget ? !target : target !== undefined)) {
        const forms = Object.keys(known).map(
          (k) => `${ANNOTATION_PREFIX}${k}${takesTarget ? (k === 'unmount' ? '.VOLUME' : '.CONTAINER') : ''}`,
        );
        fail(
          e.docNumber,
          at(e, ['metadata', 'annotations', key]),
          `${e.kind} "${e.name}": unknown annotation "${key}" (a ${e.kind} takes ${forms.join(', ') || `no ${ANNOTATION_PREFIX} annotations`})`,
        );
      }
      if (typeof value !== 'string') badValue(e, key, known[what]);
      out.push([key, value as string, target ?? '']);
    }
    return out;
  }

  function badValue(e: Entry, key: string, expected: string): never {
    const value = ((e.obj.metadata as Obj).annotations as Obj)[key];
    return fail(
      e.docNumber,
      at(e, ['metadata', 'annotations', key]),
      `${e.kind} "${e.name}": annotation ${key} is ${JSON.stringify(value)}; expected ${expected}`,
    );
  }
}
