/** Bad input: wrong assertions show the timeline or diff; the vocabulary of conditions and events; resumed objects; services and traffic. */
import { type Case, docString, FINALIZER_DUMP, NODE_AND_POD } from './case';

export const ASSERTION_VOCABULARY_CASES: Case[] = [
  // ---- a deliberately wrong assertion of each style shows the actual timeline or diff ----
  {
    name: 'wrong order assertion prints the actual timeline with the matched rows marked',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web\`\nThen these events happen in order:\n  | at   | component | event           |\n  | T+0s | kubelet   | REMOVE pods/web |`,
    failingStep: 'these events happen in order:',
    says: [
      'row 1 | T+0s | kubelet | REMOVE pods/web |',
      'the actual timeline from T+0',
      'T+1s',
      'REMOVE pods/web',
      'SIGTERM app pods/web',
    ],
  },
  {
    name: 'wrong exact-order assertion prints the narrowed timeline, marking where the run broke',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web\`\nThen these events happen in exactly this order:\n  | component | event                      |\n  | kubelet   | DELETE pods/web            |\n  | kubelet   | SyncTerminatedPod pods/web |`,
    failingStep: 'these events happen in exactly this order:',
    says: ['rows 1..1 (marked ✓)', 'narrowed to kubelet', '✗', 'SyncTerminatingPod pods/web'],
  },
  {
    name: 'wrong diff assertion prints the actual change table',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen the last request changed pod "web" like this:\n  | path                        | from     | to    |\n  | /metadata/deletionTimestamp | <absent> | T+31s |`,
    failingStep: 'the last request changed pod "web" like this:',
    says: [
      'expected <absent>',
      'The actual changes:',
      '| /metadata/deletionGracePeriodSeconds | <absent> | 30',
      '/metadata/generation',
    ],
  },
  {
    name: 'wrong fields assertion prints the actual object',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has fields:\n  | path                                 | value |\n  | /metadata/deletionGracePeriodSeconds | 5     |`,
    failingStep: 'pod "web" has fields:',
    says: ['/metadata/deletionGracePeriodSeconds: expected 5, actual 30', 'deletionTimestamp:'],
  },

  // ---- the vocabulary of conditions, Kubernetes Events and time windows ----
  {
    name: 'a time window that is not whole seconds',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelet event "REMOVE" happens between T+1.5s and T+3s`,
    failingStep: 'no kubelet event "REMOVE" happens between T+1.5s and T+3s',
    says: ['whole seconds', '1.5s'],
  },
  {
    name: 'a time window past the end of the timeline',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelet event "REMOVE" happens between T+0s and T+30s`,
    failingStep: 'no kubelet event "REMOVE" happens between T+0s and T+30s',
    says: ['reaches past the end of the timeline', 'The timeline ends at T+0s', 'When 30s pass'],
  },
  {
    name: 'a time window that ends before it starts',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen no kubelet event "REMOVE" happens between T+30s and T+3s`,
    failingStep: 'no kubelet event "REMOVE" happens between T+30s and T+3s',
    says: ['"between T+30s and T+3s" ends before it starts'],
  },
  {
    name: 'an Event type that is neither Normal nor Warning',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen pod "web" has a Critical event "Killing"`,
    failingStep: 'pod "web" has a Critical event "Killing"',
    says: ['Normal or Warning, not "Critical"'],
  },
  {
    name: 'a pod on a missing node that the scenario declares',
    steps: `${NODE_AND_POD}\nAnd a pod "ghost" bound to node "node-1" that does not exist\nWhen the user deletes pod "web"`,
    failingStep: 'a pod "ghost" bound to node "node-1" that does not exist',
    says: ['node "node-1" of pod "ghost" is declared in this scenario', 'Given a pod "ghost" running on node "node-1"'],
  },
  {
    name: 'a condition expected without a reason that has one',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --wait=false\`\nAnd 5s pass\nThen pod "web" was removed with condition "Ready" with status "False" and no reason`,
    failingStep: 'pod "web" was removed with condition "Ready" with status "False" and no reason',
    says: [
      'the last stored state of pod "web" has condition Ready with status False and reason PodFailed; expected status False and no reason',
      'Its conditions:',
    ],
  },
  {
    name: 'a count of Kubernetes Events that is wrong',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nAnd 5s pass\nThen pod "web" has 2 events "Killing"`,
    failingStep: 'pod "web" has 2 events "Killing"',
    says: [
      'pod "web" has 1 Event Killing; expected exactly 2',
      'Its events:',
      'Normal Killing: Stopping container app',
    ],
  },

  // ---- resumed objects and their explanation (steps/definitions/objects.steps.ts) ----
  {
    name: 'objects from a file that does not exist',
    steps: 'Given the objects in "no-such-dump.yaml"',
    failingStep: 'the objects in "no-such-dump.yaml"',
    says: ['cannot read', 'no-such-dump.yaml', 'ENOENT'],
  },
  {
    name: 'objects after a node',
    steps: `Given a node "node-1"\nAnd the objects in "${FINALIZER_DUMP}"`,
    failingStep: `the objects in "${FINALIZER_DUMP}"`,
    says: ['the objects must come before the nodes and pods declared by other steps'],
  },
  {
    name: 'an unknown cause',
    steps: `Given the objects in "${FINALIZER_DUMP}"\nThen what holds pod "report-7d9f" is:\n  | cause     | detail |\n  | finaliser | upload |`,
    failingStep: 'what holds pod "report-7d9f" is:',
    says: [
      'unknown cause "finaliser"',
      'expected one of finalizer, policy, webhook, dependents, node-unreachable, containers-running, volume-unmount, sandbox, nothing',
    ],
  },
  {
    name: 'a cause that does not hold the pod',
    steps: `Given the objects in "${FINALIZER_DUMP}"\nThen what holds pod "report-7d9f" is:\n  | cause            | detail |\n  | node-unreachable | worker |`,
    failingStep: 'what holds pod "report-7d9f" is:',
    says: [
      'no cause "node-unreachable" with a detail containing "worker" holds pod "report-7d9f"',
      'finalizer: finalizer reports.example.com/upload',
    ],
  },
  // ---- services and traffic ----
  {
    name: 'a label that is not key=value',
    steps: `${NODE_AND_POD}\nAnd a service "web" selecting pods with label "app web"`,
    failingStep: 'a service "web" selecting pods with label "app web"',
    says: ['the selector of service "web"', '"app web" is not a label like "app=web"'],
  },
  {
    name: 'clients of a service the scenario lacks',
    steps: `${NODE_AND_POD}\nAnd clients send a request to service "api" every 100ms`,
    failingStep: 'clients send a request to service "api" every 100ms',
    says: ['unknown service "api"', 'Given a service "api" selecting pods with label "app=api"'],
  },
  {
    name: 'a readiness probe period that is not whole seconds',
    steps: `${NODE_AND_POD}\nAnd container "app" of pod "web" has a readiness probe every 1500ms`,
    failingStep: 'container "app" of pod "web" has a readiness probe every 1500ms',
    says: ['whole seconds (periodSeconds)', '1.5s'],
  },
  {
    name: 'an endpoint condition the API does not have',
    steps: `${NODE_AND_POD}\nAnd a service "web" selecting pods with label "app=web"\nThen the endpointslice of service "web" lists pod "web" as healthy`,
    failingStep: 'the endpointslice of service "web" lists pod "web" as healthy',
    says: ['unknown endpoint condition "healthy"', 'ready, not-ready, serving, not-serving, terminating'],
  },
  {
    name: 'a service manifest with a top-level selector',
    steps: `${NODE_AND_POD}\nAnd a service "web" with:\n${docString('selector:\n  app: web')}`,
    failingStep: 'a service "web" with:',
    says: ['unknown field "selector"', 'did you mean spec.selector?'],
  },
];
