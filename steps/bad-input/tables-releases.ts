/** Bad input: tables, work that never ends, releases and feature gates. */
import { expect } from 'chai';
import { type Case, docString, type FailingCase, NODE_AND_POD } from './case';

export const TABLE_RELEASE_CASES: Case[] = [
  // ---- tables ----
  {
    name: 'events table with an unknown component',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen these events happen in order:\n  | component | event           |\n  | kubelett  | DELETE pods/web |`,
    failingStep: 'these events happen in order:',
    says: [
      'unknown component "kubelett"',
      'expected one of kubectl, user, controller, apiserver, admission, etcd, watch, kubelet',
    ],
  },
  {
    name: 'events table missing the event column',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen these events happen in exactly this order:\n  | component | text            |\n  | kubelet   | DELETE pods/web |`,
    failingStep: 'these events happen in exactly this order:',
    says: [
      'the table needs the columns | [at] | component | event |',
      'its header is | component | text |',
      'missing: event',
      'unknown: text',
    ],
  },
  ...(['30s', 'T+x', 'T+33s..T+30s'] as const).map(
    (at): FailingCase => ({
      name: `bad at cell ${at}`,
      steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen these events happen in order:\n  | at | component | event |\n  | ${at} | kubelet | DELETE pods/web |`,
      failingStep: 'these events happen in order:',
      says: [
        `bad "at" cell "${at}"`,
        at === 'T+33s..T+30s' ? 'the range ends before it starts' : 'expected T+Ns or a range T+Ns..T+Ms',
      ],
    }),
  ),
  {
    name: 'no … event with an unknown component',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelett event "REMOVE" happens`,
    failingStep: 'no kubelett event "REMOVE" happens',
    says: ['unknown component "kubelett"', 'expected one of'],
  },
  {
    name: 'change table missing the to column',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen the last request changed pod "web" like this:\n  | path                        | from     |\n  | /metadata/deletionTimestamp | <absent> |`,
    failingStep: 'the last request changed pod "web" like this:',
    says: ['the table needs the columns | path | from | to |', 'its header is | path | from |', 'missing: to'],
  },
  {
    name: 'change table with a dotted path',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen the last request changed pod "web" like this:\n  | path                       | from     | to    |\n  | metadata.deletionTimestamp | <absent> | T+30s |`,
    failingStep: 'the last request changed pod "web" like this:',
    says: [
      'bad path "metadata.deletionTimestamp"',
      'expected a JSON Pointer',
      'did you mean /metadata/deletionTimestamp?',
    ],
  },
  {
    name: 'has fields table with a wrong header',
    steps: `${NODE_AND_POD}\nThen pod "web" has fields:\n  | field         | value     |\n  | /status/phase | "Running" |`,
    failingStep: 'pod "web" has fields:',
    says: [
      'the table needs the columns | path | value |',
      'its header is | field | value |',
      'missing: path',
      'unknown: field',
    ],
  },
  {
    name: 'has fields with a misspelt placeholder',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has fields:\n  | path                      | value   |\n  | /metadata/deletionTimestamp | <absnt> |`,
    failingStep: 'pod "web" has fields:',
    says: ['unknown placeholder "<absnt>"', 'expected <absent>, <any>, T+Ns or a JSON value'],
  },
  {
    name: 'has fields with a time lacking its unit',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has fields:\n  | path                        | value |\n  | /metadata/deletionTimestamp | T+30  |`,
    failingStep: 'pod "web" has fields:',
    says: ['bad time "T+30"', 'expected T+Ns'],
  },

  // ---- work that never ends ----
  {
    name: 'the cluster settles with a volume that cannot be unmounted',
    steps: `Given a node "node-1"\nAnd a pod "db" running on node "node-1" with:\n${docString('spec:\n  volumes:\n    - name: data\n      emptyDir: {}')}\nAnd volume "data" of pod "db" cannot be unmounted\nWhen the user deletes pod "db"\nAnd the cluster settles`,
    failingStep: 'the cluster settles',
    says: ['did not settle within one virtual hour', 'volume "data" of pods/db on node "node-1" cannot be unmounted'],
    check: (failed) => {
      // The last events shown are from late in the virtual hour: it did run that long.
      expect(failed.errorMessage).to.match(/T\+5\dm/);
    },
  },
  // ---- releases and feature gates (src/foundation/release.ts) ----
  {
    name: 'Kubernetes v1.25 (below the range)',
    steps: `Given Kubernetes v1.25\n${NODE_AND_POD}`,
    failingStep: 'Kubernetes v1.25',
    says: ['Kubernetes "v1.25" is not supported', 'v1.26 to v1.36'],
  },
  {
    name: 'Kubernetes 1.37 (above the range)',
    steps: `Given Kubernetes 1.37\n${NODE_AND_POD}`,
    failingStep: 'Kubernetes 1.37',
    says: ['Kubernetes "1.37" is not supported', 'v1.26 to v1.36'],
  },
  {
    name: 'Kubernetes v2.1',
    steps: `Given Kubernetes v2.1\n${NODE_AND_POD}`,
    failingStep: 'Kubernetes v2.1',
    says: ['"v2.1" is not a Kubernetes release', 'v1.26 to v1.36'],
  },
  {
    name: 'Kubernetes v1.30 after the nodes (still before T+0)',
    steps: `${NODE_AND_POD}\nAnd Kubernetes v1.30`,
    passes: true,
  },
  {
    name: 'Kubernetes v1.30 after T+0',
    steps: `${NODE_AND_POD}\nWhen 1s passes\nGiven Kubernetes v1.30`,
    failingStep: 'Kubernetes v1.30',
    says: ["Kubernetes v1.30 must be declared before the scenario's time starts (T+0"],
  },
  {
    name: 'a skewed kubelet after the pods on its node (still before T+0)',
    steps: `${NODE_AND_POD}\nAnd the kubelet on node "node-1" runs Kubernetes v1.33`,
    passes: true,
  },
  {
    name: 'a release after a skewed kubelet that it leaves outside the skew policy',
    steps: `Given Kubernetes v1.33\nAnd a node "node-1"\nAnd the kubelet on node "node-1" runs Kubernetes v1.30\nAnd Kubernetes v1.34`,
    failingStep: 'Kubernetes v1.34',
    says: ['cannot run v1.30 with a v1.34 control plane', 'from v1.31 to v1.34'],
  },
  {
    name: 'a kubelet newer than the control plane',
    steps: `Given Kubernetes v1.30\nAnd a node "node-1"\nAnd the kubelet on node "node-1" runs Kubernetes v1.31`,
    failingStep: 'the kubelet on node "node-1" runs Kubernetes v1.31',
    says: ['cannot run v1.31 with a v1.30 control plane', 'from v1.27 to v1.30'],
  },
  {
    name: 'an unknown feature gate',
    steps: `Given the feature gate "Sidecars" is enabled\n${NODE_AND_POD}`,
    failingStep: 'the feature gate "Sidecars" is enabled',
    says: ['unrecognized feature gate: Sidecars', 'SidecarContainers'],
  },
  {
    name: 'a locked feature gate',
    steps: `Given the feature gate "SidecarContainers" is disabled\n${NODE_AND_POD}`,
    failingStep: 'the feature gate "SidecarContainers" is disabled',
    says: ['cannot set feature gate SidecarContainers to false, feature is locked to true'],
  },
  {
    name: 'a feature gate that is neither enabled nor disabled',
    steps: `Given the feature gate "SidecarContainers" is on\n${NODE_AND_POD}`,
    failingStep: 'the feature gate "SidecarContainers" is on',
    says: ['"enabled" or "disabled", not "on"'],
  },
];
