/**
 * V51 — validateContainerRestartPolicy: kube-apiserver refuses malformed container restart rules
 * with upstream's field paths and messages, which changed in v1.36 (kubernetes#137136, #137369).
 */
import { describe, it } from 'node:test';
import { expect } from 'chai';

import type { Container, Pod } from '../../apimachinery/types';
import { Release } from '../../foundation/release';
import { failure, newSim, NS, ok, USER } from '../testing';

const rule = (action: unknown, exitCodes?: unknown) => (exitCodes === undefined ? { action } : { action, exitCodes });
const codes = (operator: string, values: number[] = [42]) => ({ operator, values });

function pod(container: Record<string, unknown>, init?: Record<string, unknown>): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web' },
    spec: {
      restartPolicy: 'Never',
      containers: [{ name: 'app', image: 'app', ...container } as Container],
      ...(init ? { initContainers: [{ name: 'init', image: 'init', ...init } as Container] } : {}),
    },
  };
}

/** The 422 message kube-apiserver of `minor` answers for the pod, or '' when it is created. */
function refusal(minor: number, p: Pod): string {
  const r = newSim(Release.of(minor)).api.create(USER, 'pods', NS, p);
  return r.ok ? '' : failure(r, 422, 'Invalid').message;
}

const invalid = (detail: string) => `Pod "web" is invalid: ${detail}`;

describe('V51 validateContainerRestartPolicy (v1.35, v1.36)', () => {
  it('V51 rules need the container’s own restartPolicy, on regular and init containers', () => {
    for (const minor of [35, 36]) {
      expect(refusal(minor, pod({ restartPolicyRules: [rule('Restart', codes('In'))] }))).to.equal(
        invalid(
          'spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used',
        ),
      );
      expect(refusal(minor, pod({}, { restartPolicyRules: [rule('Restart', codes('In'))] }))).to.equal(
        invalid(
          'spec.initContainers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used',
        ),
      );
    }
  });

  it('V51 a container restartPolicy is Always, OnFailure or Never', () => {
    expect(refusal(35, pod({ restartPolicy: 'Sometimes' }))).to.equal(
      invalid(
        'spec.containers[0].restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      ),
    );
    for (const policy of ['Always', 'OnFailure', 'Never'])
      expect(refusal(35, pod({ restartPolicy: policy }))).to.equal('');
  });

  it('V51 an operator other than In or NotIn, and a rule without exitCodes, are refused', () => {
    expect(
      refusal(36, pod({ restartPolicy: 'Never', restartPolicyRules: [rule('Restart', codes('Equals'))] })),
    ).to.equal(
      invalid(
        'spec.containers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value: "Equals": supported values: "In", "NotIn"',
      ),
    );
    expect(
      refusal(35, pod({ restartPolicy: 'Never', restartPolicyRules: [rule('Restart', { values: [1] })] })),
    ).to.equal(
      invalid(
        'spec.containers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value: "": supported values: "In", "NotIn"',
      ),
    );
    expect(refusal(35, pod({ restartPolicy: 'Never', restartPolicyRules: [rule('Restart')] }))).to.equal(
      invalid('spec.containers[0].restartPolicyRules[0].exitCodes: Required value: must be specified'),
    );
  });

  it('V51 too many exit codes: "Too long … bytes" on v1.35, "Too many … items" from v1.36 (#137136)', () => {
    const values = Array.from({ length: 256 }, (_, i) => i);
    const p = pod({ restartPolicy: 'Never', restartPolicyRules: [rule('Restart', codes('In', values))] });
    expect(refusal(35, p)).to.equal(
      invalid('spec.containers[0].restartPolicyRules[0].exitCodes.values: Too long: may not be more than 255 bytes'),
    );
    expect(refusal(36, p)).to.equal(
      invalid('spec.containers[0].restartPolicyRules[0].exitCodes.values: Too many: 256: must have at most 255 items'),
    );
    const limit = pod({ restartPolicy: 'Never', restartPolicyRules: [rule('Restart', codes('In', values.slice(1)))] });
    expect(refusal(36, limit)).to.equal('');
  });

  it('V51 more than 20 rules: "Too long … bytes" on v1.35, "Too many … items" from v1.36 (#137136)', () => {
    const rules = Array.from({ length: 21 }, () => rule('Restart', codes('In')));
    const p = pod({ restartPolicy: 'Never', restartPolicyRules: rules });
    expect(refusal(35, p)).to.equal(
      invalid('spec.containers[0].restartPolicyRules: Too long: may not be more than 20 bytes'),
    );
    expect(refusal(36, p)).to.equal(
      invalid('spec.containers[0].restartPolicyRules: Too many: 21: must have at most 20 items'),
    );
    expect(refusal(36, pod({ restartPolicy: 'Never', restartPolicyRules: rules.slice(1) }))).to.equal('');
  });

  it('V51 RestartAllContainers: refused on v1.35 (gate off), accepted on v1.36; unknown actions list what is allowed (#137369)', () => {
    const all = (c: 'app' | 'init') => {
      const fields = {
        restartPolicy: c === 'init' ? 'Always' : 'Never',
        restartPolicyRules: [rule('RestartAllContainers', codes('In'))],
      };
      return c === 'init' ? pod({}, fields) : pod(fields);
    };
    expect(refusal(35, all('app'))).to.equal(
      invalid(
        'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "RestartAllContainers": supported values: "Restart"',
      ),
    );
    expect(refusal(36, all('app'))).to.equal('');
    expect(refusal(36, all('init'))).to.equal('');
    const unknown = pod({ restartPolicy: 'Never', restartPolicyRules: [rule('DoNotRestart', codes('In'))] });
    expect(refusal(35, unknown)).to.equal(
      invalid(
        'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "DoNotRestart": supported values: "Restart"',
      ),
    );
    expect(refusal(36, unknown)).to.equal(
      invalid(
        'spec.containers[0].restartPolicyRules[0].action: Unsupported value: "DoNotRestart": supported values: "Restart", "RestartAllContainers"',
      ),
    );
    // v1.35 with the alpha gate on: the action is allowed but the message still listed "Restart" alone.
    const r = newSim(Release.of(35, { RestartAllContainersOnContainerExits: true })).api;
    ok(r.create(USER, 'pods', NS, all('app')));
    const m = failure(r.create(USER, 'pods', NS, { ...unknown, metadata: { name: 'web2' } }), 422, 'Invalid').message;
    expect(m).to.match(/action: Unsupported value: "DoNotRestart": supported values: "Restart"$/);
  });

  it('V51 several errors are all reported; v1.34 (gate off) drops the fields and refuses nothing', () => {
    const p = pod({ restartPolicy: 'Never', restartPolicyRules: [rule('Oops', codes('Equals'))] });
    expect(refusal(36, p)).to.equal(
      invalid(
        '[spec.containers[0].restartPolicyRules[0].action: Unsupported value: "Oops": supported values: "Restart", "RestartAllContainers", spec.containers[0].restartPolicyRules[0].exitCodes.operator: Unsupported value: "Equals": supported values: "In", "NotIn"]',
      ),
    );
    expect(refusal(34, p)).to.equal('');
    expect(refusal(34, pod({ restartPolicyRules: [rule('Restart', codes('In'))] }))).to.equal('');
  });

  it('V51 a workload template’s containers are held to the same rules (Deployment, Job)', () => {
    const template = {
      metadata: { labels: { app: 'web' } },
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'app', image: 'app', restartPolicyRules: [rule('Restart', codes('In'))] }],
      },
    };
    const api = newSim(Release.of(36)).api;
    const job = api.create(USER, 'jobs', NS, { metadata: { name: 'web' }, spec: { template } } as never);
    expect(failure(job, 422, 'Invalid').message).to.equal(
      'Job.batch "web" is invalid: spec.template.spec.containers[0].restartPolicy: Required value: must specify restartPolicy when restart rules are used',
    );
    const deployment = api.create(USER, 'deployments', NS, {
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { ...template, spec: { ...template.spec, restartPolicy: 'Always' } },
      },
    } as never);
    expect(failure(deployment, 422, 'Invalid').message).to.match(
      /spec\.template\.spec\.containers\[0\]\.restartPolicy: Required value: must specify restartPolicy when restart rules are used/,
    );
  });

  it('V51 v1.28–v1.33: a regular container’s restartPolicy is Forbidden, an init container’s takes only Always', () => {
    for (const minor of [29, 33]) {
      expect(refusal(minor, pod({ restartPolicy: 'Never' }))).to.equal(
        invalid('spec.containers[0].restartPolicy: Forbidden: may not be set for non-init containers'),
      );
      expect(refusal(minor, pod({}, { restartPolicy: 'Never' }))).to.equal(
        invalid('spec.initContainers[0].restartPolicy: Unsupported value: "Never": supported values: "Always"'),
      );
      expect(refusal(minor, pod({}, { restartPolicy: 'Always' }))).to.equal('');
    }
    // Rules are unknown to those releases: decoding loses them and the pod is created.
    expect(
      refusal(33, pod({}, { restartPolicy: 'Always', restartPolicyRules: [rule('Restart', codes('In'))] })),
    ).to.equal('');
  });
});
