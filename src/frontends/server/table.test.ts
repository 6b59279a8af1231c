import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Event, Node, Pod, PodSpec } from '../../apimachinery/types';
import { createPod, newCluster, versions, type PodOptions } from '../../components/kubelet/testing';
import { Release } from '../../foundation/release';
import { humanDuration } from '../../apiserver/printers/printer';
import { toTable } from './table';
import { versionInfo } from './version';

const NOW = Date.UTC(2025, 0, 1, 1, 0, 0);
const cells = (resource: string, obj: object) =>
  (toTable(resource, [obj as Pod], { now: NOW }) as { rows: { cells: unknown[] }[] }).rows[0].cells;

function pod(status: Pod['status'], metadata: Partial<Pod['metadata']> = {}): Pod {
  return {
    metadata: { name: 'web', creationTimestamp: '2025-01-01T00:00:00Z', ...metadata },
    spec: { nodeName: 'node-1', containers: [{ name: 'app' }] },
    status,
  };
}
const running = {
  phase: 'Running',
  containerStatuses: [{ name: 'app', image: 'x', imageID: '', ready: true, restartCount: 0, state: { running: {} } }],
} as Pod['status'];
const failed = {
  phase: 'Failed',
  containerStatuses: [
    {
      name: 'app',
      image: 'x',
      imageID: '',
      ready: false,
      restartCount: 0,
      state: { terminated: { exitCode: 143, reason: 'Error' } },
    },
  ],
} as Pod['status'];

/** printers.go printPod, printNode, printEvent and duration.HumanDuration, case by case. */
describe('R73 server-side printing', () => {
  it('R90 R91 R92 secrets (type, keys), configmaps (keys of both bags), serviceaccounts (secrets listed), with integer columns', () => {
    const meta = { name: 'x', creationTimestamp: '2025-01-01T00:00:00Z' };
    expect(cells('secrets', { metadata: meta, type: 'Opaque', data: { a: 'YQ==', b: 'Yg==' } })).to.deep.equal([
      'x',
      'Opaque',
      2,
      '60m',
    ]);
    expect(cells('configmaps', { metadata: meta, data: { a: '1' }, binaryData: { b: 'Yg==' } })).to.deep.equal([
      'x',
      2,
      '60m',
    ]);
    expect(cells('serviceaccounts', { metadata: meta })).to.deep.equal(['x', 0, '60m']);
    const columns = (toTable('secrets', [], { now: NOW }) as { columnDefinitions: { name: string; type: string }[] })
      .columnDefinitions;
    expect(columns.map((c) => `${c.name}:${c.type}`)).to.deep.equal([
      'Name:string',
      'Type:string',
      'Data:integer',
      'Age:string',
    ]);
  });

  it('a running pod: ready count, phase, restarts, age, wide columns', () => {
    expect(cells('pods', pod(running))).to.deep.equal([
      'web',
      '1/1',
      'Running',
      '0',
      '60m',
      '<none>',
      'node-1',
      '<none>',
      '<none>',
    ]);
  });

  it('V16 Terminating while deletionTimestamp is set and the phase is not terminal; the terminal status once it is (v1.31+)', () => {
    expect(cells('pods', pod(running, { deletionTimestamp: '2025-01-01T01:00:30Z' }))[2]).to.equal('Terminating');
    expect(cells('pods', pod(failed, { deletionTimestamp: '2025-01-01T01:00:30Z' }))[2]).to.equal('Error');
    expect(
      cells('pods', pod({ ...running, reason: 'NodeLost' }, { deletionTimestamp: '2025-01-01T01:00:30Z' }))[2],
    ).to.equal('Unknown');
  });

  it('V16 before v1.31 a deleted pod prints Terminating whatever its phase', () => {
    const table = toTable('pods', [pod(failed, { deletionTimestamp: '2025-01-01T01:00:30Z' })], {
      now: NOW,
      release: Release.of(30),
    }) as { rows: { cells: unknown[] }[] };
    expect(table.rows[0].cells[2]).to.equal('Terminating');
  });

  it('/version follows the release', () => {
    expect(versionInfo(Release.of(30)))
      .to.include({ minor: '30', gitVersion: 'v1.30.0' })
      .and.not.have.property('emulationMinor');
    expect(versionInfo(Release.of(35))).to.include({ minor: '35', gitVersion: 'v1.35.0', emulationMinor: '35' });
  });

  it('a terminated container without a reason prints its exit code or signal; restarts show when the last one was', () => {
    const status = {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          image: 'x',
          imageID: '',
          ready: false,
          restartCount: 2,
          state: { terminated: { exitCode: 3 } },
          lastState: { terminated: { exitCode: 1, finishedAt: '2025-01-01T00:59:00Z' } },
        },
      ],
    } as Pod['status'];
    expect(cells('pods', pod(status)).slice(1, 4)).to.deep.equal(['0/1', 'ExitCode:3', '2 (60s ago)']);
  });

  it('a failed pod row carries the Completed condition', () => {
    const table = toTable('pods', [pod(failed)], { now: NOW }) as { rows: { conditions: unknown[] }[] };
    expect(table.rows[0].conditions).to.deep.equal([
      { type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' },
    ]);
  });

  it('nodes: Ready/NotReady, SchedulingDisabled, roles from labels', () => {
    const node: Node = {
      metadata: {
        name: 'n',
        creationTimestamp: '2025-01-01T00:00:00Z',
        labels: { 'node-role.kubernetes.io/control-plane': '' },
      },
      spec: { unschedulable: true },
      status: { conditions: [{ type: 'Ready', status: 'Unknown' }], nodeInfo: { kubeletVersion: 'v1.33.0' } as never },
    };
    expect(cells('nodes', node).slice(0, 5)).to.deep.equal([
      'n',
      'NotReady,SchedulingDisabled',
      'control-plane',
      '60m',
      'v1.33.0',
    ]);
  });

  it('events: last seen, type, reason, object, message; count 1 for a singleton', () => {
    const event: Event = {
      metadata: { name: 'web.1' },
      involvedObject: { kind: 'Pod', name: 'web', fieldPath: 'spec.containers{app}' },
      reason: 'Killing',
      message: 'Stopping container app',
      type: 'Normal',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2025-01-01T00:59:30Z',
      lastTimestamp: '2025-01-01T00:59:50Z',
    };
    expect(cells('events', event)).to.deep.equal([
      '10s',
      'Normal',
      'Killing',
      'pod/web',
      'spec.containers{app}',
      'kubelet, node-1',
      'Stopping container app',
      '30s',
      1,
      'web.1',
    ]);
  });

  it('on watch, only the first table carries the column definitions', () => {
    expect(toTable('pods', [pod(running)], { now: NOW, noHeaders: true })).to.not.have.property('columnDefinitions');
  });

  it('HumanDuration', () => {
    const s = 1000;
    expect(
      [0, 119 * s, 125 * s, 600 * s, 3 * 3600 * s + 60 * s, 9 * 3600 * s, 50 * 3600 * s, 3 * 365 * 86400 * s].map(
        humanDuration,
      ),
    ).to.deep.equal(['0s', '119s', '2m5s', '10m', '3h1m', '9h', '2d2h', '3y']);
  });
});

/**
 * printers.go printPod's init-container cases, on the statuses the simulated kubelet writes (K56,
 * K57): the real kubectl prints these cells as the server sends them.
 */
describe('R73 K57 the STATUS column of a pod with regular init containers', () => {
  const statusColumn = (p: Pod) =>
    cells('pods', { ...p, metadata: { ...p.metadata, creationTimestamp: '2025-01-01T00:00:00Z' } })
      .slice(1, 4)
      .map(String);
  const history = (spec: Partial<PodSpec>, containers: PodOptions['containers'], ms: number) => {
    const { c } = newCluster();
    createPod(c, 'web', { spec, containers });
    c.advance(ms);
    const seen: string[][] = [];
    for (const v of versions(c, 'web').filter((v) => v.status?.conditions)) {
      const row = statusColumn(v);
      if (JSON.stringify(row) !== JSON.stringify(seen.at(-1))) seen.push(row);
    }
    return seen;
  };

  it('Init:N/M while init containers run, PodInitializing until the app runs, then Running', () => {
    const rows = history(
      { initContainers: [{ name: 'fetch' }, { name: 'migrate' }] },
      { fetch: { exitsOnItsOwn: 0, runsForMs: 5000 }, migrate: { exitsOnItsOwn: 0, runsForMs: 5000 } },
      20_000,
    );
    expect(rows).to.deep.equal([
      ['0/1', 'Init:0/2', '0'],
      ['0/1', 'Init:1/2', '0'],
      ['0/1', 'PodInitializing', '0'],
      ['1/1', 'Running', '0'],
    ]);
  });

  it('a failing init container: Init:Error, then Init:CrashLoopBackOff while its restart is held back (restarts counted)', () => {
    const rows = history(
      { initContainers: [{ name: 'setup' }] },
      { setup: { exitsOnItsOwn: 1, runsForMs: 10_000 } },
      90_000,
    );
    expect(rows.map((r) => r[1])).to.deep.equal([
      'Init:0/1',
      'Init:Error',
      'Init:0/1',
      'Init:Error',
      'Init:CrashLoopBackOff',
      'Init:0/1',
    ]);
    expect(rows.at(-1)?.[2]).to.match(/^2 \(/);
  });

  it('with restartPolicy Never the failed pod keeps printing Init:Error', () => {
    const rows = history(
      { restartPolicy: 'Never', initContainers: [{ name: 'setup' }] },
      { setup: { exitsOnItsOwn: 1, runsForMs: 10_000 } },
      30_000,
    );
    expect(rows.at(-1)).to.deep.equal(['0/1', 'Init:Error', '0']);
  });
});

/** printers.go printService, printEndpoints (formatEndpoints) and printEndpointSlice (formatDiscoveryPorts/Endpoints, listWithMoreString). */
describe('R73 N17 server-side printing of services and endpoints', () => {
  const meta = { name: 'web', creationTimestamp: '2025-01-01T00:00:00Z' };
  it('a Service: type, cluster IP, external IP (<none>, <pending> for a load balancer without ingress), port[:nodePort]/protocol, selector', () => {
    expect(
      cells('services', {
        metadata: meta,
        spec: {
          type: 'ClusterIP',
          clusterIP: '10.96.1.1',
          ports: [{ port: 80, protocol: 'TCP' }],
          selector: { tier: 'a', app: 'web' },
        },
      }),
    ).to.deep.equal(['web', 'ClusterIP', '10.96.1.1', '<none>', '80/TCP', '60m', 'app=web,tier=a']);
    expect(
      cells('services', {
        metadata: meta,
        spec: { type: 'LoadBalancer', clusterIP: '10.96.1.2', ports: [{ port: 80, nodePort: 30086, protocol: 'TCP' }] },
      }),
    ).to.deep.equal(['web', 'LoadBalancer', '10.96.1.2', '<pending>', '80:30086/TCP', '60m', '<none>']);
  });
  it('Endpoints: ready ip:port, three at most then "+ N more..."; <none> without subsets', () => {
    const addresses = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((ip) => ({ ip }));
    expect(
      cells('endpoints', {
        metadata: meta,
        subsets: [{ addresses, notReadyAddresses: [{ ip: '10.0.0.9' }], ports: [{ port: 8080 }] }],
      }),
    ).to.deep.equal(['web', '10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080 + 1 more...', '60m']);
    expect(cells('endpoints', { metadata: meta })).to.deep.equal(['web', '<none>', '60m']);
  });
  it('an EndpointSlice: address type, ports, every endpoint address whatever its conditions; <unset> when empty', () => {
    const endpoints = [
      { addresses: ['10.0.0.1'], conditions: { ready: true } },
      { addresses: ['10.0.0.2'], conditions: { ready: false, terminating: true } },
    ];
    expect(
      cells('endpointslices', { metadata: meta, addressType: 'IPv4', ports: [{ port: 8080 }], endpoints }),
    ).to.deep.equal(['web', 'IPv4', '8080', '10.0.0.1,10.0.0.2', '60m']);
    expect(cells('endpointslices', { metadata: meta, addressType: 'IPv4', ports: [], endpoints: [] })).to.deep.equal([
      'web',
      'IPv4',
      '<unset>',
      '<unset>',
      '60m',
    ]);
  });
});
