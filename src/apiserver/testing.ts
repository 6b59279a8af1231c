/**
 * Fixtures shared by the apiserver unit tests (like upstream's registry/rest/resttest and
 * registry/generic/testing): fresh clusters without a kubelet, pod manifests, raw etcd writes for
 * states the API cannot produce, and a way to inject a concurrent writer into one request.
 */
import { expect } from 'chai';
import { Clock, EPOCH_MS } from '../foundation/clock';
import { Timeline } from '../foundation/timeline/timeline';
import { DEFAULT_RELEASE, type Release } from '../foundation/release';
import { ApiServer, DEFAULT_APISERVER_OPTIONS, type ApiResponse, type ClientIdentity } from './apiserver';
import { StatusError } from '../apimachinery/errors';
import { Etcd, type EtcdEvent, type StoredObject } from './etcd';
import { genericStrategy } from './generic-strategy';
import { clone, toTime, type KubeObject } from '../apimachinery/object';
import { podStrategy } from './pod-strategy';
import { Store } from './store';
import type { ObjectMeta, Pod, PodSpec, PodStatus, ReplicaSet, Status } from '../apimachinery/types';
import type { WatchEvent } from './watch';

export const NS = 'default';
export const USER: ClientIdentity = { name: 'user', component: 'user' };
export const KUBELET: ClientIdentity = { name: 'n1', component: 'kubelet' };
export const CONTROLLER: ClientIdentity = { name: 'controller', component: 'controller' };

/** RFC 3339 (whole seconds) of `seconds` after the virtual epoch: at(30) = '2025-01-01T00:00:30Z'. */
export function at(seconds: number): string {
  return toTime(EPOCH_MS + seconds * 1000);
}

export interface PodOverrides {
  metadata?: Partial<ObjectMeta>;
  spec?: Partial<PodSpec>;
  status?: PodStatus;
}

/** A pod as a client sends it: one container `app`, scheduled to node n1 unless overridden. */
export function podManifest(name: string, o: PodOverrides = {}): Pod {
  return {
    metadata: { name, ...o.metadata },
    spec: { nodeName: 'n1', containers: [{ name: 'app' }], ...o.spec },
    ...(o.status ? { status: o.status } : {}),
  };
}

export function replicaSetManifest(name: string, metadata: Partial<ObjectMeta> = {}): ReplicaSet {
  // A valid ReplicaSet (ValidateReplicaSetSpec): its selector selects its template's labels.
  return {
    metadata: { name, ...metadata },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app' }] } },
    },
  };
}

export function podKey(name: string): string {
  return `/registry/pods/${NS}/${name}`;
}

// ---- the storage layer alone: etcd + registry stores, no HTTP handlers ----

export interface Storage {
  clock: Clock;
  timeline: Timeline;
  etcd: Etcd;
  pods: Store<Pod>;
  replicasets: Store<ReplicaSet>;
}

export function newStorage(options: { garbageCollection?: boolean } = {}): Storage {
  const clock = new Clock();
  const timeline = new Timeline(clock);
  const etcd = new Etcd(timeline, () => clock.now());
  const gc = options.garbageCollection ?? true;
  const rsStrategy = genericStrategy<ReplicaSet>({
    kind: 'ReplicaSet',
    apiVersion: 'apps/v1',
    resource: 'replicasets',
    namespaced: true,
    gcPolicy: 'DeleteDependents',
  });
  return {
    clock,
    timeline,
    etcd,
    pods: new Store<Pod>(etcd, clock, podStrategy, gc),
    replicasets: new Store<ReplicaSet>(etcd, clock, rsStrategy, gc),
  };
}

let uids = 0;
/** Store.Create of a pod (defaults applied, generation 1), with a fresh uid. */
export function createPod(s: Storage, name = 'web', o: PodOverrides = {}): Pod {
  uids += 1;
  const manifest = podManifest(name, o);
  manifest.metadata.namespace = NS;
  return s.pods.create(manifest, { uid: `uid-${name}-${uids}` });
}

// ---- the whole apiserver ----

export interface Sim {
  clock: Clock;
  timeline: Timeline;
  api: ApiServer;
}

/** An apiserver over etcd on a fresh virtual clock (no kubelet or controllers: nothing else writes). */
export function newSim(release: Release = DEFAULT_RELEASE): Sim {
  const clock = new Clock();
  const timeline = new Timeline(clock);
  return { clock, timeline, api: new ApiServer(clock, timeline, { ...DEFAULT_APISERVER_OPTIONS, release }) };
}

export function ok<T>(r: ApiResponse<T>): T {
  if (!r.ok) expect.fail(`expected success, got ${r.code} ${r.status.reason}: ${r.status.message}`);
  return r.object;
}

export function failure<T>(r: ApiResponse<T>, code: number, reason: string): Status & { message: string } {
  if (r.ok) return expect.fail(`expected ${code} ${reason}, got ${r.code}`);
  expect([r.code, r.status.reason]).to.deep.equal([code, reason]);
  return r.status;
}

export function apiCreatePod(sim: Sim, name = 'web', o: PodOverrides = {}): Pod {
  return ok(sim.api.create(USER, 'pods', NS, podManifest(name, o)));
}

/** Collects what a pod watch delivers (deliveries run on clock ticks: call sim.clock.tick(0)). */
export function watchPods(sim: Sim, matches?: (p: Pod) => boolean, resourceVersion?: string): WatchEvent<Pod>[] {
  const events: WatchEvent<Pod>[] = [];
  ok(sim.api.watch('pods', NS, { matches, resourceVersion }, (e) => events.push(e)));
  return events;
}

// ---- raw storage access ----

/** The stored object under `key` (a copy), or undefined. */
export function stored<T extends KubeObject = Pod>(etcd: Etcd, key: string): T | undefined {
  const kv = etcd.get(key);
  return kv ? (clone(kv.value) as unknown as T) : undefined;
}

/**
 * Rewrites the stored object straight through etcd, bypassing defaulting, validation and
 * BeforeUpdate: how an object written by another apiserver version (no terminationGracePeriodSeconds,
 * generation 0, a negative deletionGracePeriodSeconds …) or left by a half-failed request is set up.
 */
export function editRaw<T extends KubeObject = Pod>(etcd: Etcd, key: string, edit: (obj: T) => void): T {
  const kv = etcd.get(key);
  if (!kv) return expect.fail(`nothing stored at ${key}`);
  const obj = clone(kv.value) as unknown as T;
  edit(obj);
  return etcd.update(key, JSON.parse(JSON.stringify(obj)) as Record<string, unknown>, kv.modRevision) as unknown as T;
}

/** Stores a pod exactly as given (no defaults): e.g. one without terminationGracePeriodSeconds. */
export function putRawPod(etcd: Etcd, pod: Pod): Pod {
  const obj = {
    apiVersion: 'v1',
    kind: 'Pod',
    ...clone(pod),
    metadata: { namespace: NS, uid: `raw-${pod.metadata.name}`, ...pod.metadata },
  };
  return etcd.create(
    podKey(pod.metadata.name!),
    JSON.parse(JSON.stringify(obj)) as Record<string, unknown>,
  ) as unknown as Pod;
}

/** Sets deletionTimestamp / deletionGracePeriodSeconds (undefined = absent) on the stored pod. */
export function stamp(
  etcd: Etcd,
  name: string,
  dT: string | undefined,
  dGP: number | undefined,
  finalizers?: string[],
): Pod {
  return editRaw<Pod>(etcd, podKey(name), (p) => {
    p.metadata.deletionTimestamp = dT;
    p.metadata.deletionGracePeriodSeconds = dGP;
    if (finalizers) p.metadata.finalizers = finalizers;
  });
}

/** Runs `fn` and returns what it returned plus the etcd changes (revisions) it made. */
export function track<T>(etcd: Etcd, fn: () => T): { result: T; writes: EtcdEvent[] } {
  const before = etcd.fullHistory().length;
  const result = fn();
  return { result, writes: etcd.fullHistory().slice(before) };
}

/** Like track, for a call expected to throw a StatusError: returns the error and the writes made. */
export function trackError(etcd: Etcd, fn: () => unknown): { error: StatusError; writes: EtcdEvent[] } {
  const before = etcd.fullHistory().length;
  try {
    fn();
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
    return { error: e, writes: etcd.fullHistory().slice(before) };
  }
  return expect.fail('expected a StatusError');
}

export function types(writes: readonly EtcdEvent[]): string[] {
  return writes.map((w) => w.type);
}

export function meta(obj: StoredObject | KubeObject): ObjectMeta {
  return (obj as KubeObject).metadata;
}

/**
 * A concurrent writer: runs `action` once, just before the `nth` call of `etcd[method]` (optionally
 * only counting calls for `key`), as if another apiserver wrote between two storage steps of the
 * request under test. Calls made by `action` itself are not counted.
 */
export function interleave(
  etcd: Etcd,
  method: 'get' | 'update' | 'delete',
  when: { nth: number; key?: string },
  action: () => void,
): void {
  const original = etcd[method].bind(etcd) as (...args: unknown[]) => unknown;
  let calls = 0;
  let busy = false;
  Object.assign(etcd, {
    [method]: (...args: unknown[]) => {
      if (!busy && (when.key === undefined || args[0] === when.key)) {
        calls += 1;
        if (calls === when.nth) {
          busy = true;
          try {
            action();
          } finally {
            busy = false;
          }
        }
      }
      return original(...args);
    },
  });
}
