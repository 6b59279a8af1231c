import { dropDisabledFields } from './disabled-fields';
import type { DeleteOptions, ObjectMeta, Status } from '../apimachinery/types';
import type { Clock } from '../foundation/clock';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import { beforeDelete } from './delete';
import { alreadyExists, conflict, invalid, notFound, StatusError } from '../apimachinery/errors';
import { Etcd, EtcdConflict, type StoredObject } from './etcd';
import { encodeForStorage } from './encode';
import { clone, copyForUpdate, toTime, type KubeObject } from '../apimachinery/object';
import { qualifiedKind, type Strategy } from './strategy';
import {
  FINALIZER_FOREGROUND,
  FINALIZER_ORPHAN,
  validateDeleteOptions,
  validateOwnerReferences,
} from '../apimachinery/validation';
import type { KindRules } from './kind-rules';

export const STORE_SOURCE = 'staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go';

/**
 * What Store.Delete hands back: the response body and whether the object left storage. The body
 * is the object, or (finalizeDelete, for a resource without ReturnDeletedObject) a Status naming it.
 */
export interface DeleteResult<T> {
  object: T | Status;
  wasDeleted: boolean;
}

/** What Store.Update hands back: the response object and whether the update removed it (R28). */
export interface UpdateResult<T> {
  object: T;
  deletedDuringUpdate: boolean;
}

export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * The admission chain a request brings to the store (upstream: the admit functions the handlers
 * pass to the registry, rest.ValidateObjectFunc and the admitting UpdatedObjectInfo): mutating
 * admission on the object as the request made it, before the strategy; validating admission on
 * the object as it would be stored, after the strategy's validation, before storage.
 */
export interface StoreAdmission<T> {
  mutate(obj: T, old: T | undefined): T;
  validate(obj: T | undefined, old: T | undefined): void;
}

/** Internal signals of updateForGracefulDeletionAndFinalizers' update function (errDeleteNow, errAlreadyDeleting). */
class DeleteNow extends Error {}
class AlreadyDeleting extends Error {}
/** Store.Update's errEmptiedFinalizers: the update empties the finalizers of an object that may go now. */
class EmptiedFinalizers extends Error {}

/**
 * The generic registry store (registry/generic/registry/store.go `Store`): one implementation
 * of create/get/list/update/delete that every resource shares, with the per-kind differences in
 * its Strategy. Methods keep upstream's names and order of decisions.
 */
export class Store<T extends KubeObject> {
  /** The etcd keys built so far, by namespace and name (see key). */
  private readonly keys = new Map<string | undefined, Map<string, string>>();

  constructor(
    private readonly etcd: Etcd,
    private readonly clock: Clock,
    readonly strategy: Strategy<T>,
    /** The apiserver's garbage collector switch (--enable-garbage-collector, on by default). */
    private readonly enableGarbageCollection = true,
    /** The kube-apiserver release modelled. */
    private readonly release: Release = DEFAULT_RELEASE,
  ) {}

  /** The kind's validation and defaulting (its kind module's `rules`, kind-rules/), set by the apiserver for every store. */
  private rules: KindRules<T> | undefined;
  private rulesRelease: Release = DEFAULT_RELEASE;

  useKindRules(rules: KindRules | undefined, release: Release): void {
    this.rules = rules as KindRules<T> | undefined;
    this.rulesRelease = release;
  }

  /**
   * The scheme's defaulter of the kind (runtime.ObjectDefaulter's Default): what decoding a request
   * body applies (the versioning codec of create.go and update.go; patch.go applyPatchToObject
   * after a patch), and what the mutating admission plugins apply again to an object they patched
   * (R203). A custom resource's is its structural schema's defaulting.
   */
  private defaulter: ((obj: KubeObject) => void) | undefined;

  useDefaulter(defaulter: (obj: KubeObject) => void): void {
    this.defaulter = defaulter;
  }

  /** Applies the kind's defaults to a decoded (or admission-patched) object, in place. */
  defaultObject(obj: KubeObject): void {
    this.defaulter?.(obj);
  }

  /**
   * The object's etcd key. Each key is built once and then handed out again: etcd's maps find a
   * key they already hold by identity, with its hash computed once, where a key concatenated anew
   * per request had to be flattened, hashed and compared character by character on every lookup;
   * and the revision history shares one string per key instead of one per write.
   */
  key(namespace: string | undefined, name: string): string {
    let byName = this.keys.get(namespace);
    if (byName === undefined) this.keys.set(namespace, (byName = new Map()));
    let key = byName.get(name);
    if (key === undefined) {
      const s = this.strategy;
      key = s.namespaced ? `/registry/${s.etcdPrefix}/${namespace}/${name}` : `/registry/${s.etcdPrefix}/${name}`;
      byName.set(name, key);
    }
    return key;
  }

  /** Forgets the keys built for objects that no longer exist (after a compaction in a long session). */
  forgetAbsentKeys(): void {
    for (const [namespace, byName] of this.keys) {
      for (const [name, key] of byName) if (this.etcd.get(key) === undefined) byName.delete(name);
      if (byName.size === 0) this.keys.delete(namespace);
    }
  }

  exists(namespace: string | undefined, name: string): boolean {
    return this.etcd.get(this.key(namespace, name)) !== undefined;
  }

  get(namespace: string | undefined, name: string): T {
    const kv = this.etcd.get(this.key(namespace, name));
    if (!kv) throw notFound(this.strategy.resource, name);
    return this.decode(kv.value);
  }

  list(namespace: string | undefined): { items: T[]; resourceVersion: string } {
    const prefix =
      this.strategy.namespaced && namespace
        ? `/registry/${this.strategy.etcdPrefix}/${namespace}/`
        : `/registry/${this.strategy.etcdPrefix}/`;
    const items = this.etcd.list(prefix).map((v) => this.decode(v));
    return { items, resourceVersion: String(this.etcd.currentRevision) };
  }

  /**
   * Store.Create with rest.BeforeCreate; R34: a name still held by a terminating object gives
   * AlreadyExists. `input` becomes the store's (it is the object the handler decoded from the
   * request body): it is prepared in place, so callers pass a copy they will not use again.
   */
  create(input: T, options: { dryRun?: boolean; uid: string; admission?: StoreAdmission<T> }): T {
    let obj: T = { apiVersion: this.strategy.apiVersion, kind: this.strategy.kind, ...input };
    // create.go: mutating admission runs on the decoded object — defaulted by the decoder (R203) —
    // before BeforeCreate. (Without admission nothing sees the object before the strategy, whose
    // PrepareForCreate applies the same defaults.)
    if (options.admission) {
      this.defaulter?.(obj);
      obj = options.admission.mutate(obj, undefined);
    }
    const meta = obj.metadata;
    // rest.BeforeCreate: system fields are the server's, whatever the client sent.
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta.resourceVersion;
    meta.uid = options.uid;
    this.rules?.defaults?.(obj, this.rulesRelease);
    this.strategy.prepareForCreate(obj, this.clock.now());
    // R320: PrepareForCreate's dropDisabledFields, the fields of gates that are off.
    dropDisabledFields(this.strategy.resource, obj, undefined, this.rulesRelease);
    // ValidateObjectMeta's owner references (R249), for every kind; after the strategy's own checks.
    // concat, not spreads: a spread walks each list through the iterator protocol (an object per
    // step), and most lists here are empty.
    let errs = this.strategy.validate(obj).concat(validateOwnerReferences(meta.ownerReferences, this.rulesRelease));
    if (this.rules?.validate) errs = errs.concat(this.rules.validate(obj, this.rulesRelease));
    if (errs.length > 0) throw invalid(qualifiedKind(this.strategy), meta.name ?? '', errs);
    // Store.Create: createValidation (validating admission) after BeforeCreate, before storage.
    options.admission?.validate(obj, undefined);
    const key = this.key(meta.namespace, meta.name ?? '');
    const existing = this.etcd.get(key);
    if (existing) {
      const beingDeleted = (existing.value.metadata as KubeObject['metadata']).deletionTimestamp !== undefined;
      throw alreadyExists(this.strategy.resource, meta.name ?? '', beingDeleted);
    }
    if (options.dryRun) return obj;
    return this.decode(this.etcd.create(key, encodeForStorage(obj, undefined) as Record<string, unknown>));
  }

  /**
   * Store.Update: a read-modify-write through GuaranteedUpdate. `apply` computes the new object
   * from the freshest stored copy (a PUT body or a patch). R28/R30: an update that leaves no
   * finalizers on an object whose deletion no longer waits (dGP nil/0) removes it instead of
   * writing; the response is then the submitted object.
   */
  update(
    namespace: string | undefined,
    name: string,
    apply: (existing: T) => T,
    options: {
      dryRun?: boolean;
      strategy?: Strategy<T>;
      preconditions?: Preconditions;
      admission?: StoreAdmission<T>;
    } = {},
  ): UpdateResult<T> {
    const strategy = options.strategy ?? this.strategy;
    const key = this.key(namespace, name);
    // rest.defaultUpdatedObjectInfo.Preconditions: a PUT body's uid (PATCH has none) is a storage
    // precondition of the update and of a delete-during-update (R30).
    const preconditions: Preconditions = { ...options.preconditions };
    let submitted: T | undefined;
    try {
      // `copy` is guaranteedUpdate's fresh copy of the stored object, the update function's to
      // change; the stored (frozen) version itself is what the checks compare against. (A second
      // copy for the update function was two objects per write for nothing: the checks only read.)
      const object = this.guaranteedUpdate(key, name, preconditions, !!options.dryRun, (copy, existing) => {
        let next = apply(copy);
        // The admitting UpdatedObjectInfo: mutating admission on the updated object — a PUT body
        // or a patched object, defaulted as decoded (R203) — before the checks. The updated object
        // shares the stored (frozen) object's unchanged parts, so it is defaulted as a copy.
        if (options.admission) {
          if (this.defaulter) {
            next = clone(next);
            this.defaulter(next);
          }
          next = options.admission.mutate(next, existing);
        }
        const rv = next.metadata.resourceVersion;
        if (rv !== undefined && rv !== '' && rv !== existing.metadata.resourceVersion) {
          throw conflict(
            this.strategy.resource,
            name,
            'the object has been modified; please apply your changes to the latest version and try again',
          );
        }
        if ((rv === undefined || rv === '') && !strategy.allowUnconditionalUpdate) {
          throw invalid(qualifiedKind(strategy), name, [
            {
              field: 'metadata.resourceVersion',
              type: 'Invalid',
              value: '',
              detail: 'must be specified for an update',
            },
          ]);
        }
        this.beforeUpdate(strategy, next, existing);
        // updateValidation: validating admission on the fully formed object, before the
        // delete-during-update check, so it also judges the update that removes the last finalizer.
        options.admission?.validate(next, existing);
        if (
          shouldDeleteDuringUpdate(next, existing) &&
          (this.strategy.shouldDeleteDuringUpdate?.(next, existing) ?? true)
        ) {
          submitted = next;
          throw new EmptiedFinalizers();
        }
        return next;
      });
      return { object, deletedDuringUpdate: false };
    } catch (e) {
      if (!(e instanceof EmptiedFinalizers) || !submitted) throw e;
      this.deleteWithoutFinalizers(key, name, preconditions, !!options.dryRun);
      return { object: submitted, deletedDuringUpdate: true };
    }
  }

  /**
   * Storage.GuaranteedUpdate straight on the stored object, without the update strategy: what a
   * registry's own REST code writes (the namespace REST.Delete stamping Terminating, R121).
   */
  guaranteedUpdateRaw(
    namespace: string | undefined,
    name: string,
    preconditions: Preconditions,
    dryRun: boolean,
    tryUpdate: (existing: T) => T,
  ): T {
    return this.guaranteedUpdate(this.key(namespace, name), name, preconditions, dryRun, tryUpdate);
  }

  /**
   * Store.Delete for one object, following its decision procedure (rules R4–R55):
   * read, BeforeDelete, then stamp and/or finalizer bookkeeping in one optimistic update, then
   * remove from storage when nothing (grace, finalizers) holds the object any longer.
   */
  delete(
    namespace: string | undefined,
    name: string,
    input: DeleteOptions | undefined,
    admission?: StoreAdmission<T>,
  ): DeleteResult<T> {
    const key = this.key(namespace, name);
    // R4: existence first.
    const obj = copyForUpdate(this.get(namespace, name));
    // R3: in-process callers without options get "delete now".
    const options: DeleteOptions = input ? clone(input) : { gracePeriodSeconds: 0 };
    const dryRun = (options.dryRun ?? []).length > 0;
    const { graceful, pending } = beforeDelete(this.strategy, obj, options, this.clock.now(), this.release);
    // R21/R22: already deleting with a grace no longer than asked: nothing changes.
    if (pending) return { object: this.finalizeDelete(obj), wasDeleted: false };
    // deleteValidation (validating admission on the object being deleted), once: upstream runs it
    // in the graceful update and again in storage's conditional delete, on the same object.
    admission?.validate(undefined, obj);

    const preconditions: Preconditions = { ...options.preconditions };
    const pendingFinalizers = (obj.metadata.finalizers ?? []).length > 0;
    const [shouldUpdateFinalizers] = this.deletionFinalizersForGarbageCollection(obj, options);
    let out: T | undefined;
    let deleteImmediately = true;
    let ignoreNotFound = false;
    let lastExisting: T | undefined;
    if (graceful || pendingFinalizers || shouldUpdateFinalizers) {
      const r = this.updateForGracefulDeletionAndFinalizers(key, name, options, preconditions, dryRun, obj);
      ({ out, deleteImmediately, ignoreNotFound, lastExisting } = r);
      if (r.alreadyDeleting) return { object: this.finalizeDelete(out ?? obj), wasDeleted: false };
      // R43: the removal that follows is conditioned on the version just written.
      if (deleteImmediately && preconditions.resourceVersion !== undefined && out)
        preconditions.resourceVersion = out.metadata.resourceVersion;
    }
    if (!deleteImmediately) return { object: out ?? obj, wasDeleted: false };
    // R47: a dry run stops here with the would-be object.
    if (dryRun && out) return { object: out, wasDeleted: true };
    try {
      return {
        object: this.finalizeDelete(this.conditionalDelete(key, name, preconditions, dryRun)),
        wasDeleted: true,
      };
    } catch (e) {
      // R17: on the graceful path with period 0 someone else may have removed it meanwhile; that is success.
      if (e instanceof StatusError && e.code === 404 && ignoreNotFound && lastExisting)
        return { object: this.finalizeDelete(lastExisting), wasDeleted: true };
      throw e;
    }
  }

  /**
   * store.go finalizeDelete (R49/R50): pods (ReturnDeletedObject) answer with the object; other
   * resources with a Success Status whose details name the object (kind = the plural resource).
   */
  private finalizeDelete(obj: T): T | Status {
    if (this.strategy.returnDeletedObject) return obj;
    const group = this.strategy.apiVersion.includes('/') ? this.strategy.apiVersion.split('/')[0] : undefined;
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: obj.metadata.name,
        ...(group ? { group } : {}),
        kind: this.strategy.resource,
        uid: obj.metadata.uid,
      },
    };
  }

  /** Store.DeleteCollection (R61): each item with its own copy of the options; NotFound is skipped. */
  deleteCollection(
    namespace: string | undefined,
    options: DeleteOptions,
    match: (obj: T) => boolean,
    admission?: (name: string) => StoreAdmission<T> | undefined,
  ): T[] {
    const errs = validateDeleteOptions(options);
    if (errs.length > 0) throw invalid('DeleteOptions.meta.k8s.io', '', errs);
    const items = this.list(namespace).items.filter(match);
    for (const item of items) {
      try {
        this.delete(namespace, item.metadata.name ?? '', clone(options), admission?.(item.metadata.name ?? ''));
      } catch (e) {
        if (!(e instanceof StatusError && e.code === 404)) throw e;
      }
    }
    return items;
  }

  /**
   * Store.updateForGracefulDeletionAndFinalizers: inside one optimistic update, re-run
   * BeforeDelete on the freshest copy, adjust GC finalizers, and stamp (graceful) or mark as
   * deleting (not graceful but finalizers remain). Decides whether removal follows (R13/R14).
   */
  private updateForGracefulDeletionAndFinalizers(
    key: string,
    name: string,
    options: DeleteOptions,
    preconditions: Preconditions,
    dryRun: boolean,
    read: T,
  ) {
    let lastGraceful = 0;
    let pendingFinalizers = false;
    let lastExisting: T | undefined;
    try {
      const out = this.guaranteedUpdate(key, name, preconditions, dryRun, (existing) => {
        const { graceful, pending } = beforeDelete(this.strategy, existing, options, this.clock.now(), this.release);
        if (pending) throw new AlreadyDeleting();
        // R39: GC finalizers change only here, after the pending check, so a pending DELETE never touches them.
        const [needsUpdate, finalizers] = this.deletionFinalizersForGarbageCollection(existing, options);
        if (needsUpdate) existing.metadata.finalizers = finalizers;
        pendingFinalizers = (existing.metadata.finalizers ?? []).length > 0;
        if (!graceful) {
          // R33: not graceful but held by finalizers: mark as deleting with grace 0.
          if (pendingFinalizers) {
            markAsDeleting(existing, this.clock.now());
            return existing;
          }
          throw new DeleteNow();
        }
        lastGraceful = options.gracePeriodSeconds ?? 0;
        lastExisting = existing;
        return existing;
      });
      // R14/R27: finalizers or a remaining grace period keep the object.
      if (pendingFinalizers || lastGraceful > 0)
        return { out, deleteImmediately: false, ignoreNotFound: false, lastExisting, alreadyDeleting: false };
      return { out, deleteImmediately: true, ignoreNotFound: true, lastExisting, alreadyDeleting: false };
    } catch (e) {
      if (e instanceof DeleteNow)
        return { out: undefined, deleteImmediately: true, ignoreNotFound: false, lastExisting, alreadyDeleting: false };
      // errAlreadyDeleting: Store.Delete answers finalizeDelete(in), the copy it read.
      if (e instanceof AlreadyDeleting)
        return { out: read, deleteImmediately: false, ignoreNotFound: false, lastExisting, alreadyDeleting: true };
      throw e;
    }
  }

  /**
   * store.go deletionFinalizersForGarbageCollection with shouldOrphanDependents /
   * shouldDeleteDependents (R35–R37): returns whether the finalizer set changes, and the new list.
   */
  private deletionFinalizersForGarbageCollection(obj: T, options: DeleteOptions): [boolean, string[]] {
    const old = obj.metadata.finalizers ?? [];
    if (!this.enableGarbageCollection) return [false, old];
    const policy = this.strategy.defaultGarbageCollectionPolicy?.();
    // An 'Unsupported' policy makes both decisions false, so existing GC finalizers are stripped (as upstream).
    const orphan = shouldOrphanDependents(old, options, policy);
    const foreground = shouldDeleteDependents(old, options, policy);
    // Most deletions neither ask for nor carry a GC finalizer: nothing to add or strip.
    if (!orphan && !foreground && !old.includes(FINALIZER_ORPHAN) && !old.includes(FINALIZER_FOREGROUND))
      return [false, old];
    const next = old.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
    if (orphan) next.push(FINALIZER_ORPHAN);
    if (foreground) next.push(FINALIZER_FOREGROUND);
    const same = new Set(old).size === new Set(next).size && next.every((f) => old.includes(f));
    return same ? [false, old] : [true, next];
  }

  /**
   * etcd3 GuaranteedUpdate through DryRunnableStorage: read, check preconditions (R42), compute,
   * skip the write when nothing changed (R53), compare-and-swap; a dry run computes without writing.
   */
  private guaranteedUpdate(
    key: string,
    name: string,
    preconditions: Preconditions,
    dryRun: boolean,
    /** Called with a copy of the stored object it may change, and the stored (frozen) object itself. */
    tryUpdate: (copy: T, stored: T) => T,
  ): T {
    for (;;) {
      const kv = this.etcd.get(key);
      if (!kv) throw notFound(this.strategy.resource, name);
      const existing = this.decode(kv.value);
      this.checkPreconditions(key, existing, preconditions, name);
      const next = tryUpdate(copyForUpdate(existing), existing);
      // R53: compared as stored (same resourceVersion), an unchanged object encodes to the stored one itself.
      const candidate = { ...next, metadata: asStored(next.metadata, existing.metadata.resourceVersion, dryRun) };
      // etcd3 updateState → versioner.PrepareObjectForStorage: the object the update function
      // returned loses its resourceVersion before encoding (a dry run never gets here, R17).
      if (!dryRun) delete next.metadata.resourceVersion;
      const serialized = encodeForStorage(candidate, kv.value) as Record<string, unknown>;
      if (serialized === kv.value) return existing;
      if (dryRun) return serialized as unknown as T;
      try {
        return this.decode(this.etcd.update(key, serialized, kv.modRevision));
      } catch (e) {
        // A concurrent writer moved the key: retry on the fresh copy (never happens within one synchronous request, kept for fidelity).
        if (!(e instanceof EtcdConflict)) throw e;
      }
    }
  }

  /** etcd3 conditionalDelete (R15): re-check preconditions against the current state, then remove it. */
  private conditionalDelete(key: string, name: string, preconditions: Preconditions, dryRun: boolean): T {
    const kv = this.etcd.get(key);
    if (!kv) throw notFound(this.strategy.resource, name);
    this.checkPreconditions(key, this.decode(kv.value), preconditions, name);
    if (dryRun) return this.decode(kv.value);
    return this.decode(this.etcd.delete(key, kv.modRevision));
  }

  /**
   * Store.deleteWithoutFinalizers: the removal an emptied-finalizers update turns into, conditioned
   * only on the update's preconditions (a PUT body's uid, R30). Several clients may race to drop the
   * last finalizer, so NotFound counts as done.
   */
  private deleteWithoutFinalizers(key: string, name: string, preconditions: Preconditions, dryRun: boolean): void {
    try {
      this.conditionalDelete(key, name, preconditions, dryRun);
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) throw e;
    }
  }

  /**
   * storage.Preconditions.Check (an InvalidObj StorageError) as storeerr.InterpretUpdateError /
   * InterpretDeleteError turn it into a Conflict naming the resource (R42).
   */
  private checkPreconditions(key: string, obj: T, pre: Preconditions, name: string): void {
    const fail = (msg: string) =>
      conflict(
        this.strategy.resource,
        name,
        `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: ${msg}`,
      );
    if (pre.uid !== undefined && pre.uid !== obj.metadata.uid) {
      throw fail(`Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${obj.metadata.uid ?? ''}`);
    }
    if (pre.resourceVersion !== undefined && pre.resourceVersion !== obj.metadata.resourceVersion) {
      throw fail(
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${obj.metadata.resourceVersion ?? ''}`,
      );
    }
  }

  /** rest.BeforeUpdate: system fields follow the stored object; then the strategy's own rules and validation (R32). */
  private beforeUpdate(strategy: Strategy<T>, next: T, old: T): void {
    const meta = next.metadata;
    const oldMeta = old.metadata;
    next.apiVersion = old.apiVersion;
    next.kind = old.kind;
    meta.generation = oldMeta.generation;
    this.rules?.defaults?.(next, this.rulesRelease);
    strategy.prepareForUpdate(next, old);
    // R320: PrepareForUpdate's dropDisabledFields; a field the stored object uses is kept.
    if (strategy === this.strategy) dropDisabledFields(strategy.resource, next, old, this.rulesRelease);
    meta.uid ||= oldMeta.uid;
    meta.resourceVersion = oldMeta.resourceVersion;
    if (oldMeta.creationTimestamp) meta.creationTimestamp = oldMeta.creationTimestamp;
    if (oldMeta.deletionTimestamp !== undefined) meta.deletionTimestamp = oldMeta.deletionTimestamp;
    if (oldMeta.deletionGracePeriodSeconds !== undefined && meta.deletionGracePeriodSeconds === undefined) {
      meta.deletionGracePeriodSeconds = oldMeta.deletionGracePeriodSeconds;
    }
    // ValidateObjectMetaUpdate validates the new owner references too (R249).
    let errs = strategy
      .validateUpdate(next, old)
      .concat(validateOwnerReferences(meta.ownerReferences, this.rulesRelease));
    // The kind's own rules re-validate an update of the main resource (ValidateXUpdate calls ValidateX's spec checks); a status update is not re-validated.
    if (strategy === this.strategy && this.rules?.validate)
      errs = errs.concat(this.rules.validate(next, this.rulesRelease, old));
    if (strategy === this.strategy && this.rules?.validateUpdate)
      errs = errs.concat(this.rules.validateUpdate(next, old, this.rulesRelease));
    if (errs.length > 0) throw invalid(qualifiedKind(strategy), meta.name ?? '', errs);
  }

  /** Objects leave the store as the frozen stored versions: clients read them, and copy before changing. */
  private decode(value: StoredObject): T {
    return value as unknown as T;
  }
}

/** store.go ShouldDeleteDuringUpdate (R28). */
function shouldDeleteDuringUpdate(next: KubeObject, existing: KubeObject): boolean {
  if ((next.metadata.finalizers ?? []).length > 0) return false;
  if (existing.metadata.deletionTimestamp === undefined) return false;
  const grace = existing.metadata.deletionGracePeriodSeconds;
  return grace === undefined || grace === 0;
}

/** store.go markAsDeleting (R33): dGP 0, dT never moved later, generation +1 only when dT was unset. */
function markAsDeleting(obj: KubeObject, now: number): void {
  const meta = obj.metadata;
  if (meta.deletionTimestamp === undefined && (meta.generation ?? 0) > 0) meta.generation = (meta.generation ?? 0) + 1;
  if (meta.deletionTimestamp === undefined || Date.parse(meta.deletionTimestamp) > now)
    meta.deletionTimestamp = toTime(now);
  meta.deletionGracePeriodSeconds = 0;
}

/** store.go shouldOrphanDependents (R35). */
function shouldOrphanDependents(
  finalizers: readonly string[],
  options: DeleteOptions,
  policy: string | undefined,
): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return options.orphanDependents;
  if (options.propagationPolicy === 'Orphan') return true;
  if (options.propagationPolicy === 'Background' || options.propagationPolicy === 'Foreground') return false;
  for (const f of finalizers) {
    if (f === FINALIZER_ORPHAN) return true;
    if (f === FINALIZER_FOREGROUND) return false;
  }
  return policy === 'OrphanDependents';
}

/** store.go shouldDeleteDependents (R36). */
function shouldDeleteDependents(
  finalizers: readonly string[],
  options: DeleteOptions,
  policy: string | undefined,
): boolean {
  if (policy === 'Unsupported') return false;
  if (options.orphanDependents !== undefined) return false;
  if (options.propagationPolicy === 'Foreground') return true;
  if (options.propagationPolicy === 'Background' || options.propagationPolicy === 'Orphan') return false;
  for (const f of finalizers) {
    if (f === FINALIZER_FOREGROUND) return true;
    if (f === FINALIZER_ORPHAN) return false;
  }
  return false;
}

/**
 * The metadata an updated object is compared and stored with: the stored resourceVersion, last
 * (where PrepareObjectForStorage's removal and the re-stamp put it), or in place for a dry run,
 * which keeps the update function's. Copied member by member: spreading a copy that has just lost
 * a member ({ ...m, resourceVersion } after `delete m.resourceVersion`) is several times slower in
 * V8, and this runs for every update.
 */
function asStored(metadata: ObjectMeta, resourceVersion: string | undefined, dryRun: boolean): ObjectMeta {
  const out: Record<string, unknown> = {};
  for (const key in metadata) if (dryRun || key !== 'resourceVersion') out[key] = metadata[key as keyof ObjectMeta];
  out.resourceVersion = resourceVersion;
  return out as ObjectMeta;
}
