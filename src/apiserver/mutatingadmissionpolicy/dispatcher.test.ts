import { describe, it } from 'node:test';
import { expect } from 'chai';
import type { Pod } from '../../apimachinery/types';
import { Release } from '../../foundation/release';
import { apiCreatePod, failure, newSim, ok, type Sim, USER } from '../testing';

const PODS = {
  resourceRules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
};

function policy(sim: Sim, name: string, spec: Record<string, unknown>, binding: Record<string, unknown> = {}): void {
  ok(
    sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
      metadata: { name },
      spec: { matchConstraints: PODS, ...spec },
    } as never),
  );
  ok(
    sim.api.create(USER, 'mutatingadmissionpolicybindings', undefined, {
      metadata: { name: `${name}-binding` },
      spec: { policyName: name, ...binding },
    } as never),
  );
}

/** The Status of a CREATE of pod web that admission refuses with that code and reason. */
const refusedPod = (sim: Sim, code: number, reason: string) =>
  failure(
    sim.api.create(USER, 'pods', 'default', {
      metadata: { name: 'web' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    } as Pod),
    code,
    reason,
  );

const jsonPatch = (expression: string) => ({ patchType: 'JSONPatch', jsonPatch: { expression } });
const apply = (expression: string) => ({ patchType: 'ApplyConfiguration', applyConfiguration: { expression } });

describe('R317 MutatingAdmissionPolicy applied (apiserver plugin/policy/mutating, v1.36)', () => {
  it('a JSONPatch adds a label, escaping the key with jsonpatch.escapeKey; the pod is stored with it', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'team', {
      mutations: [
        jsonPatch(
          '[JSONPatch{op: "add", path: "/metadata/labels", value: {}}, JSONPatch{op: "add", path: "/metadata/labels/" + jsonpatch.escapeKey("example.com/team"), value: "a"}]',
        ),
      ],
    });
    const pod = apiCreatePod(sim, 'web');
    expect(pod.metadata.labels).to.deep.equal({ 'example.com/team': 'a' });
  });

  it('an ApplyConfiguration adds an init container and merges containers by name (list-map key), keeping the rest', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'sidecar', {
      mutations: [
        apply(`Object{spec: Object.spec{
          initContainers: [Object.spec.initContainers{name: "proxy", image: "proxy:1", restartPolicy: "Always"}],
          containers: [Object.spec.containers{name: "app", env: [Object.spec.containers.env{name: "MODE", value: "x"}]}]
        }}`),
      ],
    });
    const pod = apiCreatePod(sim, 'web');
    expect(pod.spec?.initContainers?.map((c) => [c.name, c.image, c.restartPolicy])).to.deep.equal([
      ['proxy', 'proxy:1', 'Always'],
    ]);
    const app = pod.spec?.containers.find((c) => c.name === 'app');
    expect(app?.image, 'the merge keeps the fields it does not set').to.be.a('string').and.not.equal('');
    expect(app?.env).to.deep.equal([{ name: 'MODE', value: 'x' }]);
  });

  it('an ApplyConfiguration that sets an atomic list is refused: the request fails under Fail, passes under Ignore', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'args', {
      mutations: [apply('Object{spec: Object.spec{containers: [Object.spec.containers{name: "app", args: ["x"]}]}}')],
    });
    const s = refusedPod(sim, 403, 'Invalid');
    expect(s.message).to.equal(
      "policy 'args' with binding 'args-binding' denied request: error applying patch: invalid ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.containers[0].args",
    );
    const ignored = newSim(Release.of(36));
    policy(ignored, 'args', {
      failurePolicy: 'Ignore',
      mutations: [apply('Object{spec: Object.spec{containers: [Object.spec.containers{name: "app", args: ["x"]}]}}')],
    });
    expect(apiCreatePod(ignored, 'web').spec?.containers[0].args).to.equal(undefined);
  });

  it('a JSONPatch that does not apply fails with the json-patch error; a failed test leaves the object unchanged', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'deep', {
      mutations: [jsonPatch('[JSONPatch{op: "add", path: "/metadata/annotations/a", value: "b"}]')],
    });
    const s = refusedPod(sim, 403, 'Invalid');
    expect(s.message).to.equal(
      "policy 'deep' with binding 'deep-binding' denied request: JSON Patch: add operation does not apply: doc is missing path: \"/metadata/annotations/a\": missing value",
    );
    const tested = newSim(Release.of(36));
    policy(tested, 'guard', {
      mutations: [
        jsonPatch(
          '[JSONPatch{op: "test", path: "/metadata/name", value: "other"}, JSONPatch{op: "add", path: "/metadata/labels", value: {"x": "y"}}]',
        ),
      ],
    });
    expect(apiCreatePod(tested, 'web').metadata.labels).to.equal(undefined);
  });

  it('matchConditions, variables and params decide what a binding patches', () => {
    const sim = newSim(Release.of(36));
    ok(
      sim.api.create(USER, 'configmaps', 'default', {
        metadata: { name: 'settings' },
        data: { team: 'blue' },
      } as never),
    );
    policy(
      sim,
      'labels',
      {
        paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
        matchConditions: [{ name: 'not-system', expression: '!object.metadata.name.startsWith("system-")' }],
        variables: [{ name: 'team', expression: 'params.data.team' }],
        mutations: [
          apply(
            'Object{metadata: Object.metadata{labels: {"team": string(variables.team), "owner": request.userInfo.username}}}',
          ),
        ],
      },
      { paramRef: { name: 'settings', parameterNotFoundAction: 'Deny' } },
    );
    expect(apiCreatePod(sim, 'web').metadata.labels).to.deep.equal({ team: 'blue', owner: 'user' });
    expect(apiCreatePod(sim, 'system-web').metadata.labels).to.equal(undefined);
  });

  it('an expression that does not compile is refused at create (422), with the patch types declared', () => {
    const sim = newSim(Release.of(36));
    const s = failure(
      sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
        metadata: { name: 'p' },
        spec: {
          matchConstraints: PODS,
          mutations: [jsonPatch('[JSONPatch{op: "add", pth: "/x"}]'), apply('[Object{}]'), apply('Widget{a: 1}')],
        },
      } as never),
      422,
      'Invalid',
    );
    expect(s.message).to.contain(
      'spec.mutations[0].jsonPatch.expression: Invalid value: "[JSONPatch{op: \\"add\\", pth: \\"/x\\"}]": compilation failed: ERROR: <input>:1:23: undefined field \'pth\'',
    );
    expect(s.message).to.contain(
      'spec.mutations[1].applyConfiguration.expression: Invalid value: "[Object{}]": must evaluate to Object but got list(Object)',
    );
    expect(s.message).to.contain("undeclared reference to 'Widget' (in container '')");
  });

  it('reinvocationPolicy IfNeeded: a policy runs again after a later policy changed the object', () => {
    const sim = newSim(Release.of(36));
    // "a-count" runs first (name order) and copies the label "b" sets; only its second run sees it.
    policy(sim, 'a-count', {
      reinvocationPolicy: 'IfNeeded',
      mutations: [
        apply(
          'Object{metadata: Object.metadata{annotations: {"seen": has(object.metadata.labels) && "b" in object.metadata.labels ? "yes" : "no"}}}',
        ),
      ],
    });
    policy(sim, 'b-label', { mutations: [apply('Object{metadata: Object.metadata{labels: {"b": "1"}}}')] });
    const pod = apiCreatePod(sim, 'web');
    expect(pod.metadata.annotations).to.deep.equal({ seen: 'yes' });
    const never = newSim(Release.of(36));
    policy(never, 'a-count', {
      mutations: [
        apply(
          'Object{metadata: Object.metadata{annotations: {"seen": has(object.metadata.labels) && "b" in object.metadata.labels ? "yes" : "no"}}}',
        ),
      ],
    });
    policy(never, 'b-label', { mutations: [apply('Object{metadata: Object.metadata{labels: {"b": "1"}}}')] });
    expect(apiCreatePod(never, 'web').metadata.annotations).to.deep.equal({ seen: 'no' });
  });

  it('records what it patched on the admission lane; the create of a policy carries no "not applied" warning', () => {
    const sim = newSim(Release.of(36));
    const created = sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
      metadata: { name: 'p' },
      spec: { matchConstraints: PODS, mutations: [apply('Object{metadata: Object.metadata{labels: {"a": "b"}}}')] },
    } as never);
    expect(created.warnings ?? []).to.deep.equal([]);
    ok(
      sim.api.create(USER, 'mutatingadmissionpolicybindings', undefined, {
        metadata: { name: 'pb' },
        spec: { policyName: 'p' },
      } as never),
    );
    apiCreatePod(sim, 'web');
    const texts = sim.timeline
      .all()
      .filter((e) => e.component === 'admission')
      .map((e) => e.text);
    expect(texts).to.deep.equal(['mutating policy p binding pb patched CREATE pods/web']);
  });

  it('an eviction (CREATE pods/eviction) is mutated before it is carried out: the pod is deleted with the grace the policy sets', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'fast-evictions', {
      matchConstraints: {
        resourceRules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods/eviction'] }],
      },
      mutations: [apply('Object{deleteOptions: Object.deleteOptions{gracePeriodSeconds: 5}}')],
    });
    apiCreatePod(sim, 'web');
    ok(sim.api.evict(USER, 'default', 'web', { metadata: { name: 'web', namespace: 'default' } } as never));
    const pod = ok(sim.api.get('pods', 'default', 'web'));
    expect(pod.metadata.deletionGracePeriodSeconds).to.equal(5);
  });

  it('runs before the mutating webhooks; an IfNeeded policy runs again after a webhook changed the object', () => {
    const sim = newSim(Release.of(36));
    const seen: unknown[] = [];
    sim.api.webhookCaller = {
      call: (_hook, review) => {
        const labels = (review.request.object as Pod).metadata.labels;
        seen.push(labels);
        const ops = labels?.webhook ? [] : [{ op: 'add', path: '/metadata/labels/webhook', value: 'yes' }];
        return {
          response: {
            uid: review.request.uid,
            allowed: true,
            patchType: 'JSONPatch',
            patch: Buffer.from(JSON.stringify(ops)).toString('base64'),
          },
        };
      },
    };
    ok(
      sim.api.create(USER, 'mutatingwebhookconfigurations', undefined, {
        metadata: { name: 'w' },
        webhooks: [
          {
            name: 'label.example.com',
            admissionReviewVersions: ['v1'],
            sideEffects: 'None',
            clientConfig: { url: 'https://127.0.0.1:9443/hook' },
            rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
          },
        ],
      } as never),
    );
    policy(sim, 'copy', {
      reinvocationPolicy: 'IfNeeded',
      mutations: [
        apply(
          'Object{metadata: Object.metadata{labels: {"policy": has(object.metadata.labels) && "webhook" in object.metadata.labels ? "after-webhook" : "first"}}}',
        ),
      ],
    });
    const pod = apiCreatePod(sim, 'web');
    expect(seen[0], "the webhook sees the policy's first label").to.deep.equal({ policy: 'first' });
    expect(pod.metadata.labels).to.deep.equal({ policy: 'after-webhook', webhook: 'yes' });
  });

  it('a JSONPatch result is decoded strictly: an unknown field ends the request with a 500, whatever the failurePolicy', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'junk', {
      failurePolicy: 'Ignore',
      mutations: [jsonPatch('[JSONPatch{op: "add", path: "/spec/colour", value: "red"}]')],
    });
    const s = refusedPod(sim, 500, 'InternalError');
    expect(s.message).to.equal('Internal error occurred: strict decoding error: unknown field "spec.colour"');
  });

  it('on UPDATE (a PATCH) the expressions see oldObject; the CREATE it does not match is left alone', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'remember', {
      matchConstraints: {
        resourceRules: [{ operations: ['UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
      },
      mutations: [
        apply('Object{metadata: Object.metadata{annotations: {"previous-team": oldObject.metadata.labels.team}}}'),
      ],
    });
    expect(apiCreatePod(sim, 'web', { metadata: { labels: { team: 'a' } } }).metadata.annotations).to.equal(undefined);
    const patched = ok(sim.api.patch(USER, 'pods', 'default', 'web', 'merge', { metadata: { labels: { team: 'b' } } }));
    expect(patched.metadata.labels).to.deep.equal({ team: 'b' });
    expect(patched.metadata.annotations).to.deep.equal({ 'previous-team': 'a' });
  });

  it('R208 a variable is typed as its expression compiled (composition.go, 1.29+): a string variable and a string literal make one map', () => {
    const sim = newSim(Release.of(36));
    policy(sim, 'team', {
      variables: [{ name: 'team', expression: '"team-" + object.metadata.name' }],
      mutations: [
        jsonPatch('[JSONPatch{op: "add", path: "/metadata/labels", value: {"team": variables.team, "x": "y"}}]'),
      ],
    });
    expect(apiCreatePod(sim, 'web').metadata.labels).to.deep.equal({ team: 'team-web', x: 'y' });
    // A field of the object is dyn, and so is a variable holding one: beside a string it is a mixed literal.
    const s = failure(
      sim.api.create(USER, 'mutatingadmissionpolicies', undefined, {
        metadata: { name: 'mixed' },
        spec: {
          matchConstraints: PODS,
          variables: [{ name: 'team', expression: 'object.metadata.name' }],
          mutations: [
            jsonPatch('[JSONPatch{op: "add", path: "/metadata/labels", value: {"team": variables.team, "x": "y"}}]'),
          ],
        },
      } as never),
      422,
      'Invalid',
    );
    expect(s.message).to.contain("compilation failed: ERROR: <input>:1:86: expected type 'dyn' but found 'string'");
  });
});
