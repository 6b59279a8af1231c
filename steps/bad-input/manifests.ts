/** Bad input: manifests in doc strings, and names the scenario does not have. */
import { expect } from 'chai';
import { type Case, manifestCase, NODE_AND_POD } from './case';

export const MANIFEST_CASES: Case[] = [
  // ---- manifests (doc strings) ----
  manifestCase('malformed YAML doc string', 'spec:\n  containers: [ {name: app', [
    'malformed YAML in the manifest of pod "web"',
    /at \S+case-\d+\.feature:\d+, column \d+ \(line 2 of the doc string\)/,
  ]),
  manifestCase('a manifest that is a list', '- name: app\n- name: sidecar', [
    'the manifest of pod "web" must be a YAML mapping',
    '[{"name":"app"},{"name":"sidecar"}]',
  ]),
  manifestCase('a manifest that is a scalar', 'just some text', [
    'the manifest of pod "web" must be a YAML mapping',
    '"just some text"',
  ]),
  manifestCase('unknown top-level field containers:', 'containers:\n  - name: app', [
    'unknown field "containers"',
    'did you mean spec.containers?',
    'expected apiVersion, kind, metadata, spec, status',
  ]),
  manifestCase('terminationGracePeriodSeconds: "thirty"', 'spec:\n  terminationGracePeriodSeconds: "thirty"', [
    'spec.terminationGracePeriodSeconds',
    'must be an integer',
    '"thirty"',
  ]),
  manifestCase('finalizers: "x"', 'metadata:\n  finalizers: "x"', [
    'metadata.finalizers',
    'must be a list of strings',
    'got "x"',
  ]),
  manifestCase('containers: []', 'spec:\n  containers: []', [
    'spec.containers',
    'must be a non-empty list of containers',
    'got []',
  ]),
  manifestCase('labels with a number value', 'metadata:\n  labels:\n    tier: 3', [
    'metadata.labels',
    'must be a map of strings',
    '{"tier":3}',
  ]),
  manifestCase('restartPolicy with a value the API does not know', 'spec:\n  restartPolicy: Sometimes', [
    'spec.restartPolicy',
    'must be Always, OnFailure or Never',
    '"Sometimes"',
  ]),
  manifestCase('a manifest of another kind', 'kind: Deployment', ['has kind "Deployment"', 'only Pod manifests']),
  manifestCase('a manifest naming a different pod', 'metadata:\n  name: api', [
    'the manifest names the pod "api"',
    'the step names it "web"',
  ]),

  // ---- names that the scenario does not have ----
  {
    name: 'unknown pod in container … of pod …',
    steps: `${NODE_AND_POD}\nAnd container "app" of pod "api" ignores SIGTERM`,
    failingStep: 'container "app" of pod "api" ignores SIGTERM',
    says: ['unknown pod "api"', 'pods in this scenario: "web"'],
  },
  {
    name: 'unknown container',
    steps: `${NODE_AND_POD}\nAnd container "sidecar" of pod "web" exits 5s after SIGTERM`,
    failingStep: 'container "sidecar" of pod "web" exits 5s after SIGTERM',
    says: ['pod "web" has no container "sidecar"', 'its containers: "app"'],
  },
  {
    name: 'unknown volume',
    steps: `${NODE_AND_POD}\nAnd volume "data" of pod "web" cannot be unmounted`,
    failingStep: 'volume "data" of pod "web" cannot be unmounted',
    says: ['pod "web" has no volume "data"', 'add spec.volumes to its manifest'],
  },
  {
    name: 'unknown node for a pod',
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-2"`,
    failingStep: 'a pod "web" running on node "node-2"',
    says: ['unknown node "node-2" for pod "web"', 'Given a node "node-2"', 'nodes so far: "node-1"'],
  },
  {
    name: 'node declared twice',
    steps: `Given a node "node-1"\nAnd a node "node-1"`,
    failingStep: 'a node "node-1"',
    says: [/node "node-1" is declared twice: first at \S+case-\d+\.feature:11, again at \S+case-\d+\.feature:12/],
    check: (_failed, run) => {
      // The first declaration passed; the second one is the failing step.
      const bad = run.scenarios.find((s) => s.name === 'bad input')!;
      expect(bad.steps.filter((s) => !s.hook).map((s) => s.status)).to.deep.equal(['PASSED', 'FAILED']);
    },
  },
  {
    name: 'unknown node in a When step',
    steps: `${NODE_AND_POD}\nWhen the kubelet on node "node-9" restarts`,
    failingStep: 'the kubelet on node "node-9" restarts',
    says: ['unknown node "node-9"', 'nodes in this scenario: "node-1"'],
  },
  {
    name: 'a controller removes a finalizer the pod does not have',
    steps: `${NODE_AND_POD}\nWhen a controller removes finalizer "example.com/x" from pod "web"`,
    failingStep: 'a controller removes finalizer "example.com/x" from pod "web"',
    says: ['pod "web" has no finalizer "example.com/x"', 'its finalizers: []'],
  },
  {
    name: 'an init-container step naming a regular container',
    steps: `${NODE_AND_POD}\nAnd init container "app" of pod "web" completes after 10s`,
    failingStep: 'init container "app" of pod "web" completes after 10s',
    says: ['pod "web" has no regular init container "app"', 'add spec.initContainers to its manifest'],
  },
  {
    name: 'an init container that fails with exit code 0',
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-1" with:\n  """\n  spec:\n    initContainers: [{name: setup}]\n  """\nAnd init container "setup" of pod "web" fails with exit code 0 after 10s`,
    failingStep: 'init container "setup" of pod "web" fails with exit code 0 after 10s',
    says: ['exit code 0 is a success', 'completes after'],
  },
  {
    name: 'a preStop hook on a regular init container',
    steps: `Given a node "node-1"\nAnd a pod "web" running on node "node-1" with:\n  """\n  spec:\n    initContainers: [{name: setup}]\n  """\nAnd container "setup" of pod "web" has a preStop hook that takes 5s`,
    failingStep: 'container "setup" of pod "web" has a preStop hook that takes 5s',
    says: [
      '"setup" of pod "web" is a regular init container',
      'spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always',
    ],
  },
  {
    name: 'a preStop hook declared after the scenario started',
    steps: `${NODE_AND_POD}\nWhen 1s passes\nAnd container "app" of pod "web" has a preStop hook that takes 5s`,
    failingStep: 'container "app" of pod "web" has a preStop hook that takes 5s',
    says: ['preStop hook of container "app"', 'must be declared before the scenario starts'],
  },
];
