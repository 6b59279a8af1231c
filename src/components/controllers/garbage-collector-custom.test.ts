/**
 * The garbage collector across custom resources and built-in kinds: a custom resource owning pods
 * (foreground deletion waits for their graceful termination), a pod owning a custom resource,
 * and A7, the Sync that brings a new CRD's resources to the collector only every 30 s.
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import { databaseCRD } from '../../apiserver/apiextensions/testing';
import type { KubeObject } from '../../apimachinery/object';
import type { OwnerReference } from '../../apimachinery/types';
import { Cluster, USER } from '../../cluster/cluster';
import { createPod, expectTimeline, NODE, stored, WARMUP_MS } from '../kubelet/testing';
import { GC_SYNC_PERIOD_MS } from './garbage-collector';

function withCRD(): Cluster {
  const c = new Cluster({ controllers: ['*', '-replicaset-controller'] });
  c.addNode(NODE);
  c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
  c.flush();
  return c;
}

function database(c: Cluster, name: string, ownerReferences?: OwnerReference[]): KubeObject {
  const r = c.apiserver.create(USER, 'databases.example.com', 'default', {
    apiVersion: 'example.com/v1',
    kind: 'Database',
    metadata: { name, ...(ownerReferences ? { ownerReferences } : {}) },
    spec: { engine: 'postgres' },
  } as KubeObject);
  if (!r.ok) expect.fail(r.status.message);
  c.flush();
  return r.object;
}

const refTo = (o: KubeObject, apiVersion: string, kind: string): OwnerReference => ({
  apiVersion,
  kind,
  name: o.metadata.name!,
  uid: o.metadata.uid!,
  controller: true,
  blockOwnerDeletion: true,
});
const db = (c: Cluster, name: string) => c.apiserver.get('databases.example.com', 'default', name);

describe('the garbage collector with custom resources (A7)', () => {
  it('A7 a custom resource deleted in the foreground waits for its pods to terminate gracefully, once a Sync follows its kind', () => {
    const c = withCRD();
    const owner = database(c, 'orders');
    createPod(c, 'orders-0', {
      metadata: { ownerReferences: [refTo(owner, 'example.com/v1', 'Database')] },
      containers: { app: { sigterm: { kind: 'exits', afterMs: 5000 } } },
    });
    c.advance(WARMUP_MS);
    const t0 = c.clock.now();
    expect(
      c.apiserver.delete(USER, 'databases.example.com', 'default', 'orders', { propagationPolicy: 'Foreground' }).code,
    ).to.equal(200);
    c.advance(10_000);
    expect(db(c, 'orders').ok).to.equal(false);
    expect(stored(c, 'orders-0')).to.equal(undefined);
    expectTimeline(c, t0, [
      [0, 'apiserver', 'DELETE databases.example.com/orders propagationPolicy=Foreground'],
      [0, 'gc', 'delete pods/orders-0: its owner databases/orders is being deleted in the foreground'],
      [5, 'runtime', 'exited app code=0 pods/orders-0'],
      [6, 'status', 'DELETE pods/orders-0'],
      [6, 'gc', 'remove finalizer foregroundDeletion from databases.example.com/orders'],
    ]);
  });

  it('A7 the collector hears of a new CRD only at its next Sync: until then an ownerReference to its kind is not resolved', () => {
    const c = new Cluster({ controllers: ['*', '-replicaset-controller'] });
    c.addNode(NODE);
    const t0 = c.clock.now();
    c.apiserver.create(USER, 'customresourcedefinitions', undefined, databaseCRD());
    c.flush();
    const owner = database(c, 'orders');
    const pod = createPod(c, 'orders-0', {
      metadata: { ownerReferences: [refTo(owner, 'example.com/v1', 'Database')] },
    });
    c.apiserver.delete(USER, 'databases.example.com', 'default', 'orders');
    c.advance(1000);
    expect(stored(c, 'orders-0')?.metadata.uid).to.equal(pod.metadata.uid);
    c.advance(GC_SYNC_PERIOD_MS);
    expect(stored(c, 'orders-0')).to.equal(undefined);
    expectTimeline(c, t0, [
      [30, 'gc', 'resync monitors: databases.example.com'],
      [30, 'gc', 'delete pods/orders-0: its owner databases/orders is gone'],
    ]);
  });

  it('a custom resource owned by a pod is collected in the background when the pod goes', () => {
    const c = withCRD();
    const pod = createPod(c, 'web');
    database(c, 'cache', [refTo(pod, 'v1', 'Pod')]);
    c.advance(WARMUP_MS);
    c.apiserver.delete(USER, 'pods', 'default', 'web', { gracePeriodSeconds: 0 });
    c.advance(1000);
    expect(db(c, 'cache').code).to.equal(404);
  });
});
