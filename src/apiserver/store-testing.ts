import type { StoredObject } from './etcd';
import type { KubeObject } from '../apimachinery/object';
import type { DeleteOptions, Pod } from '../apimachinery/types';
import { podStatusStrategy } from './pod-strategy';
import {
  createPod,
  meta,
  newStorage,
  NS,
  podKey,
  putRawPod,
  track,
  types,
  type PodOverrides,
  type Storage,
} from './testing';

/** The helpers of the Store's tests (store*.test.ts): one DELETE's outcome, a stored pod, its finalizers. */

export const X = 'example.com/x';
export const Y = 'example.com/y';

/** What one DELETE did: its writes, Store.Delete's answer and the state it answered with. */
export interface Outcome {
  writes: string[];
  wasDeleted: boolean;
  dT: string | undefined;
  dGP: number | undefined;
  generation: number | undefined;
  exists: boolean;
}

export function deletePod(s: Storage, options: DeleteOptions | undefined, name = 'web'): Outcome {
  const { result, writes } = track(s.etcd, () => s.pods.delete(NS, name, options));
  const m = meta(result.object as Pod);
  return {
    writes: types(writes),
    wasDeleted: result.wasDeleted,
    dT: m.deletionTimestamp,
    dGP: m.deletionGracePeriodSeconds,
    generation: m.generation,
    exists: s.etcd.get(podKey(name)) !== undefined,
  };
}

/** An outcome with the defaults of a first DELETE of a generation-1 pod. */
export function outcome(o: Partial<Outcome> & Pick<Outcome, 'writes'>): Outcome {
  const removed = o.writes.includes('DELETE');
  return { wasDeleted: removed, dT: undefined, dGP: undefined, generation: 2, exists: !removed, ...o };
}

/** A fresh store with pod `web` created at T+0 (with `o`), and the clock at T+`nowSeconds`. */
export function withPod(o: PodOverrides = {}, nowSeconds = 2): Storage {
  const s = newStorage();
  createPod(s, 'web', o);
  s.clock.tick(nowSeconds * 1000);
  return s;
}

/** A pod stored without API defaulting (e.g. no terminationGracePeriodSeconds), clock at T+2s. */
export function withRawPod(spec: NonNullable<Pod['spec']>, generation = 1): Storage {
  const s = newStorage();
  putRawPod(s.etcd, { metadata: { name: 'web', generation }, spec, status: { phase: 'Running' } });
  s.clock.tick(2000);
  return s;
}

export function setPhase(s: Storage, phase: string, name = 'web'): void {
  s.pods.update(NS, name, (p) => ({ ...p, status: { ...p.status, phase } }), { strategy: podStatusStrategy });
}

export function finalizersOf(obj: StoredObject | KubeObject | undefined): string[] {
  return (obj && meta(obj).finalizers) ?? [];
}

export function rvOf(obj: StoredObject | KubeObject | undefined): string | undefined {
  return obj && meta(obj).resourceVersion;
}
