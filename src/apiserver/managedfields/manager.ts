import type { ManagedFieldsEntry, StatusCause } from 'kubernetes-types/meta/v1';
import { StatusError } from '../../apimachinery/errors';
import type { KubeObject } from '../../apimachinery/object';
import { FieldSet, goJson, pathString, type Json, type Path } from './fieldpath';
import { SmdSchema, type OpenApiSchema } from './schema';
import { compare, jsonEquals, merge, prune, SmdError, toFieldSet, type Comparison } from './typed';

/**
 * R112, R113, R114 — managedFields as kube-apiserver keeps them (staging/src/k8s.io/apimachinery/pkg/util/managedfields
 * and its internal/ layers over structured-merge-diff merge/update.go): one entry per manager,
 * operation (Apply or Update), apiVersion and subresource, with the fields it owns as fieldsV1 and
 * the time it last changed them.
 *
 * - An update (create, PUT, a non-apply PATCH) gives its manager the fields it changed and takes
 *   them from everyone else (managedFieldsUpdater + Updater.Update: the changes are computed for a
 *   "current-operation" manager, then joined to the manager's previous set);
 * - an apply gives its manager exactly the fields of the applied configuration; fields another
 *   manager owns and the configuration sets to another value are conflicts (409) unless forced,
 *   when they change hands; fields the manager applied before and no longer applies are removed
 *   unless someone else owns them (Updater.Apply, prune);
 * - the fields of the strategy's reset set (a pod's status through the main resource; its spec
 *   through pods/status: GetResetFields) are never owned through that endpoint;
 * - apiVersion, kind and the server-set metadata are never owned (stripMetaManager);
 * - an apply that changes nothing but the time keeps the stored entries, so it writes nothing
 *   (handlers/fieldmanager IgnoreManagedFieldsTimestampsTransformer, in every modelled release).
 *
 * - `kubectl apply --server-side` (manager `kubectl`) over an object applied client-side may take
 *   the fields its last-applied-configuration annotation names and the live object still holds,
 *   and keeps that annotation current (lastAppliedManager, lastAppliedUpdater).
 *
 * - past ten Update managers, the oldest are merged into `ancient-changes` (capManagersManager).
 *
 * Not modelled: conversion between versions (every kind here is served at one version).
 */

/** Who writes, as managedFields records it (BuildManagerIdentifier). */
export interface ManagerInfo {
  readonly manager: string;
  readonly operation: 'Apply' | 'Update';
  readonly apiVersion: string;
  readonly subresource?: string;
}

interface Managed {
  readonly info: ManagerInfo;
  set: FieldSet;
  time?: string;
}

/** kubectl's client-side apply annotation (corev1.LastAppliedConfigAnnotation). */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** merge.Conflicts: the fields an apply would take from other managers. */
class Conflicts extends Error {
  constructor(readonly list: { info: ManagerInfo; path: Path }[]) {
    super('conflicts');
  }
}

/** stripMetaManager's paths: never owned by anyone. */
const STRIPPED = FieldSet.of(
  [{ field: 'apiVersion' }],
  [{ field: 'kind' }],
  [{ field: 'metadata' }],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((f): Path => [{ field: 'metadata' }, { field: f }]),
);

/** The identifier of a manager: its entry without fields and time, and without apiVersion for appliers. */
export function managerIdentifier(info: ManagerInfo): string {
  return JSON.stringify({
    manager: info.manager,
    operation: info.operation,
    ...(info.operation === 'Update' ? { apiVersion: info.apiVersion } : {}),
    ...(info.subresource ? { subresource: info.subresource } : {}),
  });
}

/** printManager of the conflict message: `"kubectl"`, `"kube-controller-manager" using v1`, `… with subresource "status"`. */
function describeManager(info: ManagerInfo): string {
  let s = JSON.stringify(info.manager);
  if (info.subresource) s += ` with subresource ${JSON.stringify(info.subresource)}`;
  return info.operation === 'Update' ? `${s} using ${info.apiVersion}` : s;
}

/** The root of a kind without a schema: walked as the deduced type (one node, so its conversion is cached once). */
const UNTYPED_ROOT: OpenApiSchema = { 'x-kubernetes-preserve-unknown-fields': true };

export class FieldManager {
  readonly schema: SmdSchema;
  private readonly roots = new Map<string, OpenApiSchema>();

  /**
   * `definitions`: the built-in kinds' OpenAPI definitions; `customRoot`: the schema of a custom
   * resource's kind at an apiVersion, when a CRD serves it (the crdHandler's type converter).
   */
  constructor(
    definitions: Readonly<Record<string, OpenApiSchema>>,
    private readonly customRoot: (apiVersion: string, kind: string) => OpenApiSchema | undefined = () => undefined,
  ) {
    this.schema = new SmdSchema(definitions);
    for (const def of Object.values(definitions)) {
      for (const gvk of def['x-kubernetes-group-version-kind'] ?? [])
        this.roots.set(`${gvk.group ? `${gvk.group}/` : ''}${gvk.version}/${gvk.kind}`, def);
    }
  }

  /** The schema of a kind (an object of a kind without one is walked untyped). */
  rootOf(apiVersion: string, kind: string): OpenApiSchema {
    return this.roots.get(`${apiVersion}/${kind}`) ?? this.customRoot(apiVersion, kind) ?? UNTYPED_ROOT;
  }

  /**
   * FieldManager.Update: `next` (the object about to be written; `live` undefined for a create)
   * gets the managedFields of the update. Entries the request itself carries replace the live
   * ones (clients may edit them), except through a subresource.
   */
  update(live: KubeObject | undefined, next: KubeObject, info: ManagerInfo, reset: FieldSet, now: string): void {
    const root = this.rootOf(next.apiVersion ?? live?.apiVersion ?? info.apiVersion, next.kind ?? live?.kind ?? '');
    const sent = info.subresource ? undefined : next.metadata.managedFields;
    const managers = decode(sent && sent.length > 0 ? sent : (live?.metadata.managedFields ?? []));
    const before = live ? typedForm(root, live) : emptyObject(this.schema, root);
    let cmp: Comparison;
    try {
      cmp = excluding(compare(this.schema, root, before, typedForm(root, next)), reset);
    } catch (e) {
      // UpdateNoErrors: an object the type converter refuses is written without managedFields.
      if (!(e instanceof SmdError)) throw e;
      delete next.metadata.managedFields;
      return;
    }
    const self = takeChanges(managers, managerIdentifier(info), cmp);
    const changed = cmp.modified.union(cmp.added).difference(STRIPPED);
    if (!changed.isEmpty()) {
      const id = managerIdentifier(info);
      const previous = self ?? managers.get(id);
      managers.set(id, { info, set: previous ? changed.union(previous.set) : changed, time: now });
    }
    capUpdateManagers(managers);
    setManagedFields(next, managers);
  }

  /**
   * FieldManager.Apply: the object `config` applied over `live` (an empty object when the apply
   * creates), or a 409 naming every conflict. Returns the object to write.
   */
  apply(
    live: KubeObject | undefined,
    config: KubeObject,
    info: ManagerInfo,
    force: boolean,
    reset: FieldSet,
    now: string,
  ): KubeObject {
    if (config.metadata.managedFields !== undefined) throw badRequest('metadata.managedFields must be nil');
    let out: KubeObject;
    try {
      out = this.applyOnce(live, config, info, force, reset, now);
    } catch (e) {
      if (!(e instanceof Conflicts)) throw e;
      // lastAppliedManager: `kubectl apply --server-side` over an object kubectl applied client-side
      // may take the fields its last-applied-configuration names, while the live object still
      // holds those values.
      const allowed = info.manager === 'kubectl' && live ? this.allowedByLastApplied(live) : undefined;
      if (!allowed) throw applyConflict(e.list);
      const remaining = e.list.filter((c) => !allowed.has(c.path));
      if (remaining.length > 0) throw applyConflict(remaining);
      out = this.applyOnce(live, config, info, true, reset, now);
    }
    // lastAppliedUpdater: kubectl's server-side apply keeps a last-applied annotation up to date.
    const annotations = out.metadata.annotations;
    if (info.manager === 'kubectl' && annotations?.[LAST_APPLIED]) {
      const { [LAST_APPLIED]: _, ...others } = config.metadata.annotations ?? {};
      const last = { ...config, metadata: { ...config.metadata, annotations: others } };
      if (Object.keys(others).length === 0) delete (last.metadata as { annotations?: object }).annotations;
      out.metadata = {
        ...out.metadata,
        annotations: { ...annotations, [LAST_APPLIED]: `${goJson(last as unknown as Json)}\n` },
      };
    }
    return out;
  }

  /**
   * The fields of the last-applied-configuration annotation whose values the live object still
   * has (lastAppliedManager.allowedConflictsFromLastApplied); undefined without one.
   */
  private allowedByLastApplied(live: KubeObject): FieldSet | undefined {
    const text = live.metadata.annotations?.[LAST_APPLIED];
    if (!text) return undefined;
    let last: Json;
    try {
      last = JSON.parse(text) as Json;
    } catch {
      return undefined;
    }
    const lastObj = last as { apiVersion?: string; kind?: string };
    if (lastObj.apiVersion !== live.apiVersion) return undefined;
    const root = this.rootOf(lastObj.apiVersion ?? '', lastObj.kind ?? '');
    try {
      const cmp = compare(this.schema, root, last, withoutManagedFields(live));
      return toFieldSet(this.schema, root, last).difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
    } catch (e) {
      if (e instanceof SmdError) return undefined;
      throw e;
    }
  }

  private applyOnce(
    live: KubeObject | undefined,
    config: KubeObject,
    info: ManagerInfo,
    force: boolean,
    reset: FieldSet,
    now: string,
  ): KubeObject {
    const root = this.rootOf(config.apiVersion ?? '', config.kind ?? '');
    const managers = decode(live?.metadata.managedFields ?? []);
    const liveValue = (live ? withoutManagedFields(live) : {}) as Json;
    const configValue = config as unknown as Json;
    let merged: Json;
    let applied: FieldSet;
    try {
      applied = toFieldSet(this.schema, root, configValue, true).recursiveDifference(reset).difference(STRIPPED);
      merged = merge(this.schema, root, liveValue, configValue) as Json;
    } catch (e) {
      if (e instanceof SmdError) throw typedPatchError(config, e.message);
      throw e;
    }
    const id = managerIdentifier(info);
    const last = managers.get(id)?.set;
    managers.set(id, { info, set: applied, time: now });
    if (last && !last.isEmpty()) {
      let owned = new FieldSet();
      for (const m of managers.values()) owned = owned.union(m.set);
      merged = prune(this.schema, root, merged, last, owned);
    }
    const cmp = excluding(compare(this.schema, root, liveValue, merged), reset);
    const conflicts: { info: ManagerInfo; path: Path }[] = [];
    for (const [otherId, m] of managers) {
      if (otherId === id) continue;
      for (const path of m.set.intersection(cmp.modified.union(cmp.added)).paths())
        conflicts.push({ info: m.info, path });
    }
    if (conflicts.length > 0 && !force) throw new Conflicts(conflicts);
    takeChanges(managers, id, cmp);
    managers.get(id)!.set = applied;
    const out = merged as unknown as KubeObject;
    setManagedFields(out, managers);
    // An apply that changes nothing keeps the stored entries (and their times): nothing is written.
    if (
      live &&
      jsonEquals(liveValue, withoutManagedFields(out) as Json) &&
      sameEntries(live.metadata.managedFields ?? [], out.metadata.managedFields ?? [])
    ) {
      out.metadata.managedFields = live.metadata.managedFields;
    }
    return out;
  }
}

/** capManagersManager's cap (DefaultMaxUpdateManagers) and the bucket the oldest updaters go into. */
const MAX_UPDATE_MANAGERS = 10;
const ANCIENT_CHANGES = 'ancient-changes';

/**
 * capManagersManager.capUpdateManagers: past ten Update managers, the oldest (by time, then
 * identifier) are merged, per apiVersion, into one `ancient-changes` entry — the first of a
 * version becomes the bucket when a second joins it, which takes the newer one's time — until
 * ten are left.
 */
function capUpdateManagers(managers: Map<string, Managed>): void {
  const updaters = [...managers.entries()].filter(([, m]) => m.info.operation === 'Update');
  if (updaters.length <= MAX_UPDATE_MANAGERS) return;
  const seconds = (m: Managed) => (m.time ? Math.floor(Date.parse(m.time) / 1000) : 0);
  updaters.sort(([ia, a], [ib, b]) => seconds(a) - seconds(b) || (ia < ib ? -1 : ia > ib ? 1 : 0));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > MAX_UPDATE_MANAGERS; i++) {
    const [id, m] = updaters[i];
    const version = m.info.apiVersion;
    const first = firstOfVersion.get(version);
    if (first === undefined) {
      firstOfVersion.set(version, id);
      continue;
    }
    const info: ManagerInfo = { manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: version };
    const bucketId = managerIdentifier(info);
    if (!managers.has(bucketId)) {
      const firstEntry = managers.get(first)!;
      managers.delete(first);
      managers.set(bucketId, { info, set: firstEntry.set, time: firstEntry.time });
    }
    const bucket = managers.get(bucketId)!;
    managers.set(bucketId, { info, set: m.set.union(bucket.set), time: m.time });
    managers.delete(id);
    length--;
  }
}

/**
 * Updater.update for every manager but `id`: what the change modified or added leaves their sets
 * (forced), what it removed leaves them too; empty managers go. Returns `id`'s own entry.
 */
function takeChanges(managers: Map<string, Managed>, id: string, cmp: Comparison): Managed | undefined {
  const changed = cmp.modified.union(cmp.added);
  for (const [other, m] of managers) {
    if (other === id) continue;
    m.set = m.set.difference(changed).difference(cmp.removed);
    if (m.set.isEmpty()) managers.delete(other);
  }
  const own = managers.get(id);
  if (own) own.set = own.set.difference(cmp.removed);
  return own;
}

function excluding(c: Comparison, reset: FieldSet): Comparison {
  if (reset.isEmpty()) return c;
  return {
    added: c.added.recursiveDifference(reset),
    modified: c.modified.recursiveDifference(reset),
    removed: c.removed.recursiveDifference(reset),
  };
}

/**
 * The live side of a create: the kind's zero value as the Go types serialize it. metadata, spec
 * and status are structs, never omitted; in spec and status, the fields without `omitempty` —
 * the ones the OpenAPI document lists as required — are there as null (a nil slice, map or
 * pointer). So a create owns `spec.containers[name="app"]`, not `spec` or `spec.containers`.
 */
function emptyObject(schema: SmdSchema, root: OpenApiSchema): Json {
  const out: Record<string, Json> = { metadata: {} };
  for (const k of ['spec', 'status']) {
    if (!root.properties?.[k]) continue;
    const part: Record<string, Json> = {};
    const def = root.properties?.[k] ? schema.deref(root.properties[k]) : undefined;
    for (const field of def?.required ?? []) part[field] = null;
    out[k] = part;
  }
  return out;
}

function withoutManagedFields(o: KubeObject): Json {
  if (o.metadata.managedFields === undefined) return o as unknown as Json;
  const { managedFields: _, ...metadata } = o.metadata;
  return { ...o, metadata } as unknown as Json;
}

/**
 * The object as the typed Go value serializes it, for a comparison: spec and status are structs,
 * there (empty) even when the stored JSON leaves them out, so a first status write owns
 * `status.phase`, not `status` itself.
 */
function typedForm(root: OpenApiSchema, o: KubeObject): Json {
  const value = withoutManagedFields(o) as Record<string, Json>;
  const missing = ['spec', 'status'].filter((k) => value[k] === undefined && root.properties?.[k]);
  if (missing.length === 0) return value;
  const out = { ...value };
  for (const k of missing) out[k] = {};
  return out;
}

function decode(entries: readonly ManagedFieldsEntry[]): Map<string, Managed> {
  const out = new Map<string, Managed>();
  for (const e of entries) {
    const info: ManagerInfo = {
      manager: e.manager ?? '',
      operation: e.operation === 'Apply' ? 'Apply' : 'Update',
      apiVersion: e.apiVersion ?? '',
      ...(e.subresource ? { subresource: e.subresource } : {}),
    };
    out.set(managerIdentifier(info), { info, set: FieldSet.fromFieldsV1(e.fieldsV1 ?? {}), time: e.time });
  }
  return out;
}

/** encodeManagedFields with sortEncodedManagedFields: by operation, time, manager, apiVersion, subresource. */
function setManagedFields(obj: KubeObject, managers: Map<string, Managed>): void {
  const entries: ManagedFieldsEntry[] = [...managers.values()]
    .filter((m) => !m.set.isEmpty())
    .map((m) => ({
      manager: m.info.manager,
      operation: m.info.operation,
      apiVersion: m.info.apiVersion,
      ...(m.time ? { time: m.time } : {}),
      fieldsType: 'FieldsV1',
      fieldsV1: m.set.toFieldsV1(),
      ...(m.info.subresource ? { subresource: m.info.subresource } : {}),
    }));
  const key = (e: ManagedFieldsEntry) => [
    e.operation ?? '',
    e.time ?? '',
    e.manager ?? '',
    e.apiVersion ?? '',
    e.subresource ?? '',
  ];
  entries.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
  });
  obj.metadata = { ...obj.metadata, managedFields: entries };
  if (entries.length === 0) delete obj.metadata.managedFields;
}

function sameEntries(a: readonly ManagedFieldsEntry[], b: readonly ManagedFieldsEntry[]): boolean {
  const strip = (es: readonly ManagedFieldsEntry[]) => es.map(({ time: _, ...e }) => e) as unknown as Json;
  return jsonEquals(strip(a), strip(b));
}

/** internal/conflict.go NewConflictError: 409 Conflict, the message grouping paths by manager. */
function applyConflict(conflicts: { info: ManagerInfo; path: Path }[]): StatusError {
  const sorted = [...conflicts].sort((a, b) => {
    const ma = managerIdentifier(a.info);
    const mb = managerIdentifier(b.info);
    return ma < mb ? -1 : ma > mb ? 1 : 0;
  });
  let message: string;
  if (sorted.length === 1)
    message = `Apply failed with 1 conflict: conflict with ${describeManager(sorted[0].info)}: ${pathString(sorted[0].path)}`;
  else {
    const lines: string[] = [];
    let current = '';
    for (const c of sorted) {
      const id = managerIdentifier(c.info);
      if (id !== current) lines.push(`conflicts with ${describeManager(c.info)}:`);
      current = id;
      lines.push(`- ${pathString(c.path)}`);
    }
    message = `Apply failed with ${sorted.length} conflicts: ${lines.join('\n')}`;
  }
  const causes: StatusCause[] = sorted.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${describeManager(c.info)}`,
    field: pathString(c.path),
  }));
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    details: { causes },
    code: 409,
  });
}

function badRequest(message: string): StatusError {
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'BadRequest',
    code: 400,
  });
}

/**
 * A configuration the type converter refuses (a field the schema does not declare, a list item
 * without its key, two items of one key): structuredMergeManager.Apply's plain error, which
 * responsewriters.ErrorToAPIStatus answers with 500 and no reason.
 */
function typedPatchError(config: KubeObject, detail: string): StatusError {
  const [group, version] = (config.apiVersion ?? '').includes('/')
    ? (config.apiVersion ?? '').split('/')
    : ['', config.apiVersion ?? ''];
  const object = `${config.metadata.namespace ?? ''}/${config.metadata.name ?? ''}; ${group}/${version}, Kind=${config.kind ?? ''}`;
  return new StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `failed to create typed patch object (${object}): ${detail}`,
    reason: '',
    code: 500,
  });
}
