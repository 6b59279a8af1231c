import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Node, Pod } from '../../apimachinery/types';
import { requiredNodeAffinityMatches } from '../../helpers/node-affinity';
import { fitErrorMessage, runFilterPlugins } from './filters';

const node = (labels: Record<string, string> = {}, spec: Node['spec'] = {}, pods = '110'): Node => ({
  metadata: { name: 'n1', labels },
  spec,
  status: { allocatable: { pods } },
});
const pod = (spec: Partial<NonNullable<Pod['spec']>> = {}): Pod => ({
  metadata: { name: 'p' },
  spec: { containers: [{ name: 'app' }], ...spec },
});
const affinity = (exprs: { key: string; operator: string; values?: string[] }[]) =>
  pod({
    affinity: {
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: exprs }] },
      },
    },
  });

describe('scheduler filters (W2)', () => {
  it('W2 the first rejecting plugin in the profile order names the reason', () => {
    const cordonedAndTainted = node(
      {},
      { unschedulable: true, taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] },
    );
    expect(runFilterPlugins(pod(), { node: cordonedAndTainted, podCount: 0 })?.plugin).to.equal('NodeUnschedulable');
    const tolerated = pod({
      tolerations: [{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' }],
    });
    expect(runFilterPlugins(tolerated, { node: cordonedAndTainted, podCount: 0 })?.reason).to.equal(
      'node(s) had untolerated taint {k: v}',
    );
    expect(
      runFilterPlugins(pod(), {
        node: node({}, { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }),
        podCount: 0,
      }),
    ).to.equal(undefined);
    expect(runFilterPlugins(pod(), { node: node({}, {}, '3'), podCount: 3 })).to.deep.equal({
      plugin: 'NodeResourcesFit',
      code: 'Unschedulable',
      reason: 'Too many pods',
    });
    expect(runFilterPlugins(pod(), { node: { metadata: { name: 'bare' } }, podCount: 0 })?.reason).to.equal(
      'Too many pods',
    );
  });

  it('W2 required node affinity: In, NotIn, Exists, DoesNotExist, Gt, Lt, matchFields on metadata.name; terms ORed', () => {
    const n = node({ zone: 'a', size: '5' });
    expect(requiredNodeAffinityMatches(affinity([{ key: 'zone', operator: 'In', values: ['a', 'b'] }]), n)).to.equal(
      true,
    );
    expect(requiredNodeAffinityMatches(affinity([{ key: 'zone', operator: 'NotIn', values: ['a'] }]), n)).to.equal(
      false,
    );
    expect(
      requiredNodeAffinityMatches(
        affinity([
          { key: 'gpu', operator: 'DoesNotExist' },
          { key: 'size', operator: 'Gt', values: ['4'] },
        ]),
        n,
      ),
    ).to.equal(true);
    expect(requiredNodeAffinityMatches(affinity([{ key: 'size', operator: 'Lt', values: ['5'] }]), n)).to.equal(false);
    expect(requiredNodeAffinityMatches(affinity([]), n)).to.equal(false);
    const byName = pod({
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'x', operator: 'Exists' }] },
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['n1'] }] },
            ],
          },
        },
      },
    });
    expect(requiredNodeAffinityMatches(byName, n)).to.equal(true);
    expect(requiredNodeAffinityMatches(pod({ nodeSelector: { zone: 'a' } }), n)).to.equal(true);
    expect(requiredNodeAffinityMatches(pod({ nodeSelector: { zone: 'b' } }), n)).to.equal(false);
  });

  it('W2 FitError.Error: counted reasons sorted as strings, then the preemption verdict per node', () => {
    const msg = fitErrorMessage(3, [
      { plugin: 'NodeUnschedulable', code: 'UnschedulableAndUnresolvable', reason: 'node(s) were unschedulable' },
      {
        plugin: 'TaintToleration',
        code: 'UnschedulableAndUnresolvable',
        reason: 'node(s) had untolerated taint {node.kubernetes.io/not-ready: }',
      },
      { plugin: 'NodeResourcesFit', code: 'Unschedulable', reason: 'Too many pods' },
    ]);
    expect(msg).to.equal(
      '0/3 nodes are available: 1 Too many pods, 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 1 node(s) were unschedulable. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.',
    );
  });
});
