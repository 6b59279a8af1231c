/**
 * R130 — the workload kinds stored and served (jobs, statefulsets, daemonsets, controllerrevisions)
 * and the Table columns kube-apiserver prints for them (printers.go printJob, printStatefulSet,
 * printDaemonSet, printControllerRevision).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { ControllerRevision, DaemonSet, Job, StatefulSet } from '../../apimachinery/types';
import { Cluster, USER } from '../../cluster/cluster';
import { Release } from '../../foundation/release';
import { findResource } from '../../apiserver/resources';
import { toTable } from './table';

const NOW = Date.UTC(2025, 0, 1, 1, 0, 0);
const table = (resource: string, obj: object, release?: Release) =>
  toTable(resource, [obj as Job], { now: NOW, release }) as {
    columnDefinitions: { name: string; priority: number }[];
    rows: { cells: unknown[] }[];
  };
const columns = (t: ReturnType<typeof table>) => t.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name);
const meta = { name: 'pi', creationTimestamp: '2025-01-01T00:00:00Z' };

describe('R130 workload kinds in the API and their Table columns', () => {
  it('V50 printJob: NAME STATUS COMPLETIONS DURATION AGE from v1.30 (kubernetes#123226), without STATUS before', () => {
    const job: Job = {
      metadata: meta,
      spec: { completions: 3, parallelism: 1, template: { spec: { containers: [{ name: 'app', image: 'perl' }] } } },
      status: {
        succeeded: 3,
        startTime: '2025-01-01T00:10:00Z',
        completionTime: '2025-01-01T00:12:30Z',
        conditions: [{ type: 'Complete', status: 'True' }],
      },
    };
    const t = table('jobs', job);
    expect(columns(t)).to.deep.equal(['Name', 'Status', 'Completions', 'Duration', 'Age']);
    expect(t.rows[0].cells.slice(0, 5)).to.deep.equal(['pi', 'Complete', '3/3', '2m30s', '60m']);
    const old = table('jobs', job, Release.of(29));
    expect(columns(old)).to.deep.equal(['Name', 'Completions', 'Duration', 'Age']);
    const running: Job = {
      metadata: { ...meta, deletionTimestamp: '2025-01-01T00:59:00Z' },
      spec: { parallelism: 2, template: {} },
      status: { succeeded: 0 },
    };
    expect(table('jobs', running).rows[0].cells.slice(1, 3)).to.deep.equal(['Terminating', '0/1 of 2']);
  });

  it('printStatefulSet, printDaemonSet, printControllerRevision', () => {
    const set: StatefulSet = {
      metadata: { ...meta, name: 'db' },
      spec: { replicas: 3, serviceName: 'db', selector: {}, template: {} },
      status: { replicas: 3, readyReplicas: 2 },
    };
    expect(columns(table('statefulsets', set))).to.deep.equal(['Name', 'Ready', 'Age']);
    expect(table('statefulsets', set).rows[0].cells.slice(0, 3)).to.deep.equal(['db', '2/3', '60m']);
    const ds: DaemonSet = {
      metadata: { ...meta, name: 'agent' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: { spec: { nodeSelector: { role: 'edge' }, containers: [] } },
      },
      status: {
        desiredNumberScheduled: 2,
        currentNumberScheduled: 2,
        numberReady: 1,
        updatedNumberScheduled: 2,
        numberAvailable: 1,
        numberMisscheduled: 0,
      },
    };
    expect(columns(table('daemonsets', ds))).to.deep.equal([
      'Name',
      'Desired',
      'Current',
      'Ready',
      'Up-to-date',
      'Available',
      'Node Selector',
      'Age',
    ]);
    expect(table('daemonsets', ds).rows[0].cells.slice(0, 8)).to.deep.equal([
      'agent',
      2,
      2,
      1,
      2,
      1,
      'role=edge',
      '60m',
    ]);
    const cr: ControllerRevision = {
      metadata: {
        ...meta,
        name: 'db-abc',
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: 'u', controller: true }],
      },
      revision: 1,
    };
    expect(table('controllerrevisions', cr).rows[0].cells).to.deep.equal(['db-abc', 'statefulset.apps/db', 1, '60m']);
  });

  it('served with status subresources; batch/v1 Jobs orphan their pods by default (pkg/registry/batch/job/strategy.go), apps/v1 kinds delete them', () => {
    expect(Object.keys(findResource('batch', 'v1', 'jobs')!.subresources)).to.deep.equal(['status']);
    expect(findResource('apps', 'v1', 'statefulsets')!.shortNames).to.deep.equal(['sts']);
    expect(findResource('apps', 'v1', 'daemonsets')!.shortNames).to.deep.equal(['ds']);
    const c = new Cluster({ controllers: [], scheduler: false });
    const job = c.apiserver.create(USER, 'jobs', 'default', {
      metadata: { name: 'pi', finalizers: ['example.com/hold'] },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'app' }] } } },
    });
    expect(job.ok).to.equal(true);
    const deleted = c.apiserver.delete(USER, 'jobs', 'default', 'pi', {});
    expect(deleted.ok && (deleted.object as Job).metadata.finalizers).to.deep.equal(['example.com/hold', 'orphan']);
    // The status subresource keeps the spec; an update of the object keeps the status.
    const set = c.apiserver.create(USER, 'statefulsets', 'default', {
      metadata: { name: 'db' },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'app' }] } },
      },
    });
    if (!set.ok) expect.fail(set.status.message);
    const status = c.apiserver.update(
      USER,
      'statefulsets',
      'default',
      { ...set.object, spec: { ...set.object.spec!, replicas: 5 }, status: { replicas: 1 } },
      { subresource: 'status' },
    );
    expect(status.ok && [status.object.spec?.replicas, status.object.status?.replicas]).to.deep.equal([1, 1]);
  });
});
