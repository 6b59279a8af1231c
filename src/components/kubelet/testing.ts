/**
 * Fixtures shared by the kubelet unit tests: a cluster with one node and a pod that has been
 * running for a minute, the timeline as (seconds from T+0, component, text) rows, and an
 * order-and-time assertion over it that prints the whole timeline when it fails.
 */
import { expect } from 'chai';
import type { ApiResponse } from '../../apiserver/apiserver';
import type { DeleteOptions, ObjectMeta, Pod, PodSpec } from '../../apimachinery/types';
import { Cluster, USER } from '../../cluster/cluster';
import type { SimNode } from '../../cluster/node';
import { Release } from '../../foundation/release';
import type { Component } from '../../foundation/timeline/event';
import { formatTimeline } from '../../foundation/timeline/text';
import { formatOffset } from '../../foundation/timeline/time';
import { DEFAULT_BEHAVIOUR, type ContainerBehaviour } from './runtime';
import type { VolumeBehaviour } from './volume-manager';

export const NODE = 'node-1';
/** How long a pod runs before T+0: the cluster starts on a whole second, so T+0 is on the PLEG/sync grid. */
export const WARMUP_MS = 60_000;
/** A preStop handler; its duration comes from the container's behaviour (preStopMs). */
export const PRESTOP = { preStop: { exec: { command: ['sleep', '10'] } } };

export interface PodOptions {
  spec?: Partial<PodSpec>;
  metadata?: Partial<ObjectMeta>;
  /** Behaviours by container name (merged over the default: dies of SIGTERM, no hook time). */
  containers?: Record<string, Partial<ContainerBehaviour>>;
  /** Behaviours by volume name. */
  volumes?: Record<string, Partial<VolumeBehaviour>>;
  nodeName?: string;
  /** The release of every component (v1.33 unless given). */
  release?: Release;
}

/** A fresh cluster with one node, every component at `release` (v1.33 unless given). */
/**
 * The release the kubelet's tests describe unless they name one: v1.33 (they were written for it;
 * from v1.34 a DELETE also makes the kubelet PATCH observedGeneration at once, V25).
 */
export const KUBELET_TESTS_RELEASE = Release.of(33);

export function newCluster(release: Release = KUBELET_TESTS_RELEASE): { c: Cluster; node: SimNode } {
  const c = new Cluster({ release });
  return { c, node: c.addNode(NODE) };
}

/** Creates a pod (one container `app` unless the spec says otherwise) with the given behaviours; does not advance time. */
export function createPod(c: Cluster, name: string, o: PodOptions = {}): Pod {
  const nodeName = o.nodeName ?? NODE;
  const node = c.node(nodeName);
  const r = c.apiserver.create(USER, 'pods', 'default', {
    metadata: { name, ...o.metadata },
    spec: { nodeName, containers: [{ name: 'app' }], ...o.spec },
  });
  if (!r.ok) expect.fail(`pod ${name} could not be created: ${r.status.message}`);
  const uid = r.object.metadata.uid!;
  for (const [container, b] of Object.entries(o.containers ?? {}))
    node.containerBehaviours.set(`${uid} ${container}`, { ...DEFAULT_BEHAVIOUR, ...b });
  for (const [volume, b] of Object.entries(o.volumes ?? {}))
    node.volumeBehaviours.set(`${uid} ${volume}`, { unmountMs: 100, neverUnmounts: false, ...b });
  c.flush();
  return r.object;
}

/** A new cluster whose pod `web` (or `name`) has been running for a minute; returns T+0 (now). */
export function running(
  o: PodOptions = {},
  name = 'web',
): { c: Cluster; node: SimNode; pod: Pod; uid: string; t0: number } {
  const { c, node } = newCluster(o.release);
  const pod = createPod(c, name, o);
  c.advance(WARMUP_MS);
  return { c, node, pod, uid: pod.metadata.uid!, t0: c.clock.now() };
}

/** A user's DELETE of a pod (no options unless given). */
export function del(c: Cluster, name: string, options: DeleteOptions = {}): ApiResponse<Pod> {
  const r = c.apiserver.delete(USER, 'pods', 'default', name, options);
  c.flush();
  return r;
}

/** The pod as stored now (a copy the test may change), or undefined once it is gone. */
/** A condition of a pod's status, by type. */
export function condition(p: Pod | undefined, type: string) {
  return p?.status?.conditions?.find((c) => c.type === type);
}

export function stored(c: Cluster, name: string): Pod | undefined {
  const r = c.apiserver.get('pods', 'default', name);
  return r.ok ? structuredClone(r.object) : undefined;
}

/** Every version of the pod etcd stored, oldest first (the last one is its final state, even once it is gone). */
export function versions(c: Cluster, name: string): Pod[] {
  const key = c.apiserver.keyFor('pods', 'default', name);
  return c.apiserver.etcd
    .keyHistory(key)
    .filter((e) => e.type === 'PUT')
    .map((e) => structuredClone(e.value) as unknown as Pod);
}

export interface Row {
  /** Seconds from T+0 (millisecond precision). */
  t: number;
  component: Component;
  text: string;
}

/** The timeline from T+0 on as rows. */
export function eventsSince(c: Cluster, t0: number): Row[] {
  return c.timeline.since(t0).map((e) => ({ t: (e.at - t0) / 1000, component: e.component, text: e.text }));
}

/** Seconds from T+0 of the `nth` (0-based) event of `component` whose text starts with `prefix`; undefined if none. */
export function at(c: Cluster, t0: number, component: Component, prefix: string, nth = 0): number | undefined {
  return eventsSince(c, t0).filter((e) => e.component === component && e.text.startsWith(prefix))[nth]?.t;
}

/** How many events of `component` starting with `prefix` happened from T+0 on. */
export function count(c: Cluster, t0: number, component: Component, prefix: string): number {
  return eventsSince(c, t0).filter((e) => e.component === component && e.text.startsWith(prefix)).length;
}

/** An expected event: [seconds from T+0 or undefined for any time, component, text prefix]. */
export type Expected = [number | undefined, Component, string];

/**
 * The expected events happen in this order (not necessarily adjacent), each at its time. Fails
 * with the first row that could not be matched and the whole timeline.
 */
export function expectTimeline(c: Cluster, t0: number, expected: readonly Expected[]): void {
  const events = c.timeline.since(t0);
  let i = 0;
  for (const [n, [t, component, prefix]] of expected.entries()) {
    while (
      i < events.length &&
      !(
        events[i].component === component &&
        events[i].text.startsWith(prefix) &&
        (t === undefined || Math.abs(events[i].at - t0 - t * 1000) < 0.5)
      )
    )
      i += 1;
    if (i === events.length) {
      expect.fail(
        `row ${n + 1} [${t === undefined ? 'any' : formatOffset(t * 1000)}, ${component}, "${prefix}"] not found in order; timeline from T+0:\n${formatTimeline(events, t0)}`,
      );
    }
    i += 1;
  }
}

/** No event of `component` starting with `prefix` happened from T+0 on. */
export function expectNo(c: Cluster, t0: number, component: Component, prefix: string): void {
  const hit = c.timeline.since(t0).find((e) => e.component === component && e.text.startsWith(prefix));
  if (hit)
    expect.fail(
      `unexpected ${component} "${hit.text}" at ${formatOffset(hit.at - t0)}; timeline from T+0:\n${formatTimeline(c.timeline.since(t0), t0)}`,
    );
}
