import { describe, it } from 'node:test';
import { expect } from 'chai';
import { StatusError } from '../apimachinery/errors';
import { checkConvertible, duplicateListMapKey } from './field-manager';
import { newSim, NS, ok, USER } from './testing';
import type { Pod } from '../apimachinery/types';

const pod = (spec: Pod['spec'], status: Pod['status'] = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec,
  status,
});

describe('V12 — server-side apply of a pod status (field-manager.ts)', () => {
  it("duplicate list-map keys, in structured-merge-diff's words: env by name, ports by containerPort and protocol (TCP by default)", () => {
    expect(duplicateListMapKey(pod({ containers: [{ name: 'app', env: [{ name: 'A' }, { name: 'B' }] }] }))).to.equal(
      undefined,
    );
    expect(
      duplicateListMapKey(pod({ containers: [{ name: 'app', env: [{ name: 'A' }, { name: 'A', value: 'x' }] }] })),
    ).to.equal('.spec.containers[name="app"].env: duplicate entries for key [name="A"]');
    expect(
      duplicateListMapKey(
        pod({ containers: [{ name: 'app', ports: [{ containerPort: 80 }, { containerPort: 80, protocol: 'TCP' }] }] }),
      ),
    ).to.equal('.spec.containers[name="app"].ports: duplicate entries for key [containerPort=80,protocol="TCP"]');
    expect(
      duplicateListMapKey(
        pod({
          containers: [
            {
              name: 'app',
              ports: [
                { containerPort: 53, protocol: 'TCP' },
                { containerPort: 53, protocol: 'UDP' },
              ],
            },
          ],
        }),
      ),
    ).to.equal(undefined);
    expect(
      duplicateListMapKey(
        pod({ containers: [{ name: 'app' }], initContainers: [{ name: 'init', env: [{ name: 'X' }, { name: 'X' }] }] }),
      ),
    ).to.equal('.spec.initContainers[name="init"].env: duplicate entries for key [name="X"]');
  });

  it("such a pod is answered 500 with no reason, the field manager's message (kubernetes#118261)", () => {
    try {
      checkConvertible(pod({ containers: [{ name: 'php', env: [{ name: 'hi' }, { name: 'hi' }] }] }));
      expect.fail('applied');
    } catch (e) {
      expect(e).to.be.instanceOf(StatusError);
      const { code, reason, message } = (e as StatusError).status;
      expect({ code, reason, message }).to.deep.equal({
        code: 500,
        reason: '',
        message:
          'failed to create manager for existing fields: failed to convert new object (default/web; /v1, Kind=Pod) to smd typed: .spec.containers[name="php"].env: duplicate entries for key [name="hi"]',
      });
    }
  });

  it('otherwise the applied fields are merged: phase replaced, conditions by type (others kept, one of the same type updated); no managedFields kept in scenarios', () => {
    const sim = newSim();
    ok(sim.api.create(USER, 'pods', NS, pod({ containers: [{ name: 'app' }] })));
    const conditions = [
      { type: 'Ready', status: 'True' },
      { type: 'DisruptionTarget', status: 'False', reason: 'Old' },
    ];
    const live = ok(sim.api.get('pods', NS, 'web'));
    ok(
      sim.api.update(
        USER,
        'pods',
        NS,
        { ...live, status: { phase: 'Running', conditions } },
        { subresource: 'status' },
      ),
    );
    const applied = {
      status: {
        phase: 'Failed',
        conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC' }],
      },
    };
    const result = ok(sim.api.applyStatus(USER, NS, 'web', applied, { fieldManager: 'PodGC', force: true }));
    expect(result.status).to.deep.include({
      phase: 'Failed',
      conditions: [
        { type: 'Ready', status: 'True' },
        { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC' },
      ],
    });
    expect(result.metadata.managedFields).to.equal(undefined);
  });
});
