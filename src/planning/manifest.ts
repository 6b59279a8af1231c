import { parseDocument } from 'yaml';
import type { Pod, ReplicaSet, Service } from '../apimachinery/types';

/** A manifest (YAML doc string) that cannot be used, with what was wrong and where (`field`: its dotted path, when one field is wrong). */
export class ManifestError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const TOP_LEVEL = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * What parsing one text found: its value, or its first syntax error (where, and the message's
 * first line) without the `what` that names the manifest.
 */
type Parsed = { value: unknown } | { where: string; message: string };

/**
 * Parses kept by exact text. Scenarios of one feature share their Background, so the same doc
 * string or manifest file is parsed again in every scenario (steps/failure-format.test.ts's
 * Background: one CRD file ≈ 560 times). The parse depends only on the text; each caller gets its
 * own copy, since callers merge into and store what they get. Only plain data is kept (objects,
 * arrays, strings, numbers, booleans, null): structuredClone copies it as toJS made it (an alias's
 * shared object stays shared, NaN and -0 stay), where it would turn a `!!binary` Buffer into a
 * Uint8Array — such a text is parsed again at each use.
 */
const parses = new Map<string, Parsed>();
/** Enough for the manifests of a feature file's Background and steps; a longer run starts over. */
const MAX_PARSES = 512;

/** Parses YAML (or JSON, which is YAML) into a plain value; syntax errors name line and column. */
export function parseYaml(text: string, what: string): unknown {
  let parsed = parses.get(text);
  if (parsed === undefined) {
    parsed = parseOnce(text);
    if ('value' in parsed && !isPlainData(parsed.value)) return parsed.value;
    if (parses.size >= MAX_PARSES) parses.clear();
    parses.set(text, parsed);
  }
  if ('value' in parsed) return structuredClone(parsed.value);
  throw new ManifestError(`malformed YAML in ${what}${parsed.where}: ${parsed.message}`);
}

/**
 * Whether structuredClone gives back the same value: only plain objects, arrays and primitives.
 * An object seen before (an alias, or an alias inside its own anchor: a cycle) is not walked again.
 */
function isPlainData(v: unknown, seen = new Set<object>()): boolean {
  if (v === null || typeof v !== 'object')
    return typeof v !== 'bigint' && typeof v !== 'symbol' && typeof v !== 'function';
  if (seen.has(v)) return true;
  seen.add(v);
  if (Array.isArray(v)) return v.every((x) => isPlainData(x, seen));
  return Object.getPrototypeOf(v) === Object.prototype && Object.values(v).every((x) => isPlainData(x, seen));
}

function parseOnce(text: string): Parsed {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const where = e.linePos?.[0] ? ` at line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '';
    return { where, message: e.message.split('\n')[0] };
  }
  return { value: doc.toJS() };
}

/** Deep merge for manifests: objects merge key by key, everything else (lists included) replaces. */
export function mergeManifest(base: unknown, overlay: unknown): unknown {
  if (!isObject(base) || !isObject(overlay)) return structuredClone(overlay);
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(overlay)) out[k] = k in out ? mergeManifest(out[k], v) : structuredClone(v);
  return out;
}

type Check = (v: unknown) => boolean;
const isString: Check = (v) => typeof v === 'string';
const isInt: Check = (v) => Number.isInteger(v);
const isStringList: Check = (v) => Array.isArray(v) && v.every(isString);
const isStringMap: Check = (v) => isObject(v) && Object.values(v).every(isString);
const isNamedList: Check = (v) => Array.isArray(v) && v.every((x) => isObject(x) && isString(x.name));

/** Field type rules for the parts of a pod that scenarios set; wrong types are caught before the apiserver sees them. */
const FIELD_TYPES: [string, Check, string][] = [
  ['metadata.name', isString, 'a string'],
  ['metadata.namespace', isString, 'a string'],
  ['metadata.labels', isStringMap, 'a map of strings'],
  ['metadata.annotations', isStringMap, 'a map of strings'],
  ['metadata.finalizers', isStringList, 'a list of strings'],
  ['metadata.ownerReferences', Array.isArray, 'a list'],
  ['spec.nodeName', isString, 'a string'],
  ['spec.terminationGracePeriodSeconds', isInt, 'an integer'],
  ['spec.activeDeadlineSeconds', isInt, 'an integer'],
  ['spec.restartPolicy', (v) => v === 'Always' || v === 'OnFailure' || v === 'Never', 'Always, OnFailure or Never'],
  [
    'spec.containers',
    (v) => isNamedList(v) && (v as unknown[]).length > 0,
    'a non-empty list of containers, each with a name',
  ],
  ['spec.initContainers', isNamedList, 'a list of containers, each with a name'],
  ['spec.volumes', isNamedList, 'a list of volumes, each with a name'],
  [
    'status.phase',
    (v) => ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'].includes(v as string),
    'Pending, Running, Succeeded, Failed or Unknown',
  ],
];

function get(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (isObject(o) ? o[k] : undefined), obj);
}

/**
 * Builds the pod a scenario means: the defaults (one container `app`, namespace default) with the
 * partial manifest (a doc string, or an object already parsed) merged over them. Unknown top-level fields and wrong field
 * types are errors that name the field and what was expected.
 */
export function podFromManifest(
  name: string,
  nodeName: string | undefined,
  manifest: string | Record<string, unknown> | undefined,
  namespace = 'default',
): Pod {
  const base: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace },
    spec: { containers: [{ name: 'app' }] },
  };
  let overlay: unknown = {};
  if (typeof manifest === 'object' || (manifest !== undefined && manifest.trim() !== '')) {
    overlay = typeof manifest === 'object' ? manifest : parseYaml(manifest, `the manifest of pod "${name}"`);
    if (!isObject(overlay))
      throw new ManifestError(
        `the manifest of pod "${name}" must be a YAML mapping (metadata:, spec: …), got ${JSON.stringify(overlay)}`,
      );
    for (const key of Object.keys(overlay)) {
      if (!TOP_LEVEL.has(key)) {
        const hint = ['containers', 'volumes', 'terminationGracePeriodSeconds', 'initContainers'].includes(key)
          ? ` (did you mean spec.${key}?)`
          : ['finalizers', 'labels', 'ownerReferences', 'annotations'].includes(key)
            ? ` (did you mean metadata.${key}?)`
            : '';
        throw new ManifestError(
          `unknown field "${key}" at the top of the manifest of pod "${name}"${hint}: expected apiVersion, kind, metadata, spec, status`,
          key,
        );
      }
    }
    if (overlay.kind !== undefined && overlay.kind !== 'Pod')
      throw new ManifestError(
        `the manifest of pod "${name}" has kind ${JSON.stringify(overlay.kind)}; only Pod manifests are accepted here`,
      );
    for (const [path, check, expected] of FIELD_TYPES) {
      const v = get(overlay, path);
      if (v !== undefined && !check(v))
        throw new ManifestError(`field ${path} of pod "${name}" must be ${expected}, got ${JSON.stringify(v)}`, path);
    }
    const given = get(overlay, 'metadata.name');
    if (given !== undefined && given !== name)
      throw new ManifestError(`the manifest names the pod "${given}" but the step names it "${name}"`);
    const givenNs = get(overlay, 'metadata.namespace');
    if (givenNs !== undefined && givenNs !== namespace)
      throw new ManifestError(
        `the manifest puts pod "${name}" in namespace "${givenNs}" but the step in "${namespace}"`,
      );
  }
  const pod = mergeManifest(base, overlay) as Pod;
  if (nodeName !== undefined) pod.spec = { ...pod.spec!, nodeName };
  return pod;
}

/**
 * A ReplicaSet for a scenario: apps/v1, selecting `app: NAME`, with the doc string's partial
 * manifest merged over it. (Its controller keeps spec.replicas pods: declare as many owned pods as it asks for, or it makes or deletes the difference.)
 */
export function replicaSetFromManifest(
  name: string,
  manifest: string | Record<string, unknown> | undefined,
): ReplicaSet {
  const base: ReplicaSet = {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app' }] } },
    },
  };
  if (manifest === undefined || (typeof manifest === 'string' && manifest.trim() === '')) return base;
  const overlay = typeof manifest === 'object' ? manifest : parseYaml(manifest, `the manifest of replicaset "${name}"`);
  if (!isObject(overlay))
    throw new ManifestError(
      `the manifest of replicaset "${name}" must be a YAML mapping, got ${JSON.stringify(overlay)}`,
    );
  for (const key of Object.keys(overlay)) {
    if (!TOP_LEVEL.has(key))
      throw new ManifestError(
        `unknown field "${key}" at the top of the manifest of replicaset "${name}": expected apiVersion, kind, metadata, spec, status`,
        key,
      );
  }
  const finalizers = get(overlay, 'metadata.finalizers');
  if (finalizers !== undefined && !isStringList(finalizers))
    throw new ManifestError(
      `field metadata.finalizers of replicaset "${name}" must be a list of strings, got ${JSON.stringify(finalizers)}`,
      'metadata.finalizers',
    );
  return mergeManifest(base, overlay) as ReplicaSet;
}

/**
 * A Service for a scenario: v1, namespace default, one TCP port 80 to the pods' 8080 unless the
 * manifest gives its own, with the doc string's partial manifest merged over it (a list replaces
 * the default one).
 */
export function serviceFromManifest(name: string, manifest: string | Record<string, unknown> | undefined): Service {
  const base: Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
  };
  if (manifest === undefined || (typeof manifest === 'string' && manifest.trim() === '')) return base;
  const overlay = typeof manifest === 'object' ? manifest : parseYaml(manifest, `the manifest of service "${name}"`);
  if (!isObject(overlay))
    throw new ManifestError(
      `the manifest of service "${name}" must be a YAML mapping (metadata:, spec: …), got ${JSON.stringify(overlay)}`,
    );
  for (const key of Object.keys(overlay)) {
    if (!TOP_LEVEL.has(key)) {
      const hint = [
        'selector',
        'ports',
        'type',
        'publishNotReadyAddresses',
        'externalTrafficPolicy',
        'internalTrafficPolicy',
      ].includes(key)
        ? ` (did you mean spec.${key}?)`
        : '';
      throw new ManifestError(
        `unknown field "${key}" at the top of the manifest of service "${name}"${hint}: expected apiVersion, kind, metadata, spec, status`,
        key,
      );
    }
  }
  if (overlay.kind !== undefined && overlay.kind !== 'Service')
    throw new ManifestError(
      `the manifest of service "${name}" has kind ${JSON.stringify(overlay.kind)}; only Service manifests are accepted here`,
    );
  const selector = get(overlay, 'spec.selector');
  if (selector !== undefined && !isStringMap(selector))
    throw new ManifestError(
      `field spec.selector of service "${name}" must be a map of strings (label: value), got ${JSON.stringify(selector)}`,
      'spec.selector',
    );
  const given = get(overlay, 'metadata.name');
  if (given !== undefined && given !== name)
    throw new ManifestError(`the manifest names the service "${given}" but the step names it "${name}"`);
  return mergeManifest(base, overlay) as Service;
}

/** `app=web` (a label selector of equality terms, comma-separated) → { app: 'web' }. */
export function labelsFromText(text: string, what: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const term of text.split(',')) {
    const m = /^\s*([A-Za-z0-9][-A-Za-z0-9_./]*)\s*=\s*([-A-Za-z0-9_.]*)\s*$/.exec(term);
    if (!m) throw new ManifestError(`${what}: "${text}" is not a label like "app=web" (key=value, comma-separated)`);
    out[m[1]] = m[2];
  }
  return out;
}
