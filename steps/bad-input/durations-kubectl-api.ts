/** Bad input: durations, kubectl command lines, and API action doc strings. */
import { type Case, docString, type FailingCase, NODE_AND_POD } from './case';

export const DURATION_KUBECTL_API_CASES: Case[] = [
  // ---- durations ----
  ...(['30', '-5s', '1x', '5 s', '2 minutes'] as const).map(
    (d): FailingCase => ({
      name: `bad duration ${d}`,
      steps: `${NODE_AND_POD}\nAnd container "app" of pod "web" exits ${d} after SIGTERM`,
      failingStep: `container "app" of pod "web" exits ${d} after SIGTERM`,
      says: [
        `bad duration "${d}"`,
        'expected a non-negative number followed by ms, s, m or h',
        '30s, 1.5s, 2m, 1h, 500ms',
      ],
    }),
  ),
  {
    name: 'bad duration in When … pass',
    steps: `${NODE_AND_POD}\nWhen 5 s pass`,
    failingStep: '5 s pass',
    says: ['bad duration "5 s"', 'followed by ms, s, m or h'],
  },

  // ---- kubectl ----
  ...(
    [
      [
        '--field-selector=metadata.name=web',
        'kubectl delete pods --field-selector=metadata.name=web',
        'flag --field-selector is not modelled',
      ],
      ['-f pod.yaml', 'kubectl delete -f pod.yaml', 'flag -f (--filename) is not modelled'],
      ['-A', 'kubectl delete pods --all -A', 'flag -A (--all-namespaces) is not modelled'],
    ] as const
  ).map(
    ([flag, line, says]): FailingCase => ({
      name: `unsupported kubectl flag ${flag}`,
      steps: `${NODE_AND_POD}\nWhen I run \`${line}\``,
      failingStep: `I run \`${line}\``,
      says: [says, 'supported: `kubectl delete pod|replicaset|namespace NAME'],
    }),
  ),
  {
    name: 'not a delete command (kubectl get pods)',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl get pods\``,
    failingStep: 'I run `kubectl get pods`',
    says: ['kubectl get is not modelled by this simulator', 'supported: `kubectl delete'],
  },
  {
    name: "kubectl drain of a pod without a controller, without --force: kubectl's filter error (K80)",
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl drain node-1\``,
    failingStep: 'I run `kubectl drain node-1`',
    says: [
      '`kubectl drain node-1` exited 1',
      'cannot delete Pods that declare no controller (use --force to override): default/web',
      'There are pending nodes to be drained:',
    ],
  },
  {
    name: 'unknown kubectl flag',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --bogus\``,
    failingStep: 'I run `kubectl delete pod web --bogus`',
    says: [
      '`kubectl delete pod web --bogus` exited 1',
      'error: unknown flag: --bogus',
      "See 'kubectl delete --help' for usage.",
    ],
  },
  {
    name: '--grace-period=3 --force through When I run',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --grace-period=3 --force\`\nThen pod "web" exists`,
    failingStep: 'I run `kubectl delete pod web --grace-period=3 --force`',
    says: ['exited 1', 'error: --force and --grace-period greater than 0 cannot be specified together'],
  },
  {
    name: '--now --grace-period=5 through When I run',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod web --now --grace-period=5\``,
    failingStep: 'I run `kubectl delete pod web --now --grace-period=5`',
    says: ['exited 1', 'error: --now and --grace-period cannot be specified together'],
  },
  {
    name: '--grace-period=3 --force through When I try to run',
    steps: `${NODE_AND_POD}\nWhen I try to run \`kubectl delete pod web --grace-period=3 --force\`\nThen kubectl fails with "error: --force and --grace-period greater than 0 cannot be specified together"\nAnd pod "web" exists`,
    passes: true,
  },
  {
    name: '--now --grace-period=5 through When I try to run',
    steps: `${NODE_AND_POD}\nWhen I try to run \`kubectl delete pod web --now --grace-period=5\`\nThen kubectl fails with "error: --now and --grace-period cannot be specified together"\nAnd pod "web" exists`,
    passes: true,
  },
  {
    name: 'kubectl fails with a different message than expected',
    steps: `${NODE_AND_POD}\nWhen I try to run \`kubectl delete pod web --now --grace-period=5\`\nThen kubectl fails with "cannot be used with"`,
    failingStep: 'kubectl fails with "cannot be used with"',
    says: ['does not contain "cannot be used with"', 'error: --now and --grace-period cannot be specified together'],
  },
  {
    name: 'kubectl delete of a pod that does not exist',
    steps: `${NODE_AND_POD}\nWhen I run \`kubectl delete pod nope\``,
    failingStep: 'I run `kubectl delete pod nope`',
    says: ['exited 1', 'Error from server (NotFound): pods "nope" not found'],
  },
  {
    name: 'kubectl waits on a pod a finalizer holds (--timeout=30s)',
    steps: `Given a node "node-1"\nAnd a pod "db" running on node "node-1" with:\n${docString('metadata:\n  finalizers: ["example.com/block"]')}\nWhen I run \`kubectl delete pod db --timeout=30s\``,
    failingStep: 'I run `kubectl delete pod db --timeout=30s`',
    says: [
      'error: timed out waiting for the condition on pods/db',
      'What still blocks:',
      'finalizer example.com/block',
    ],
  },
  {
    name: 'kubectl fails with … before any kubectl run',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web"\nThen kubectl fails with "error"`,
    failingStep: 'kubectl fails with "error"',
    says: ['no kubectl command has been run', 'When I try to run `kubectl …`'],
  },

  // ---- API action doc strings ----
  {
    name: 'DeleteOptions doc string that is a list',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web" with options:\n${docString('- gracePeriodSeconds: 0')}`,
    failingStep: 'the user deletes pod "web" with options:',
    says: ['DeleteOptions must be a YAML/JSON mapping', 'gracePeriodSeconds: 0', '[{"gracePeriodSeconds":0}]'],
  },
  {
    name: 'DeleteOptions doc string with malformed YAML',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web" with options:\n${docString('{ gracePeriodSeconds: 0')}`,
    failingStep: 'the user deletes pod "web" with options:',
    says: [
      'malformed YAML in the DeleteOptions of the step deleting pod "web"',
      /at \S+case-\d+\.feature:\d+, column \d+ \(line \d+ of the doc string\)/,
    ],
  },
  {
    name: 'a uid placeholder naming a pod that does not exist',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "web" with options:\n${docString('preconditions:\n  uid: <uid of pod "nope">')}`,
    failingStep: 'the user deletes pod "web" with options:',
    says: ['cannot fill in <uid of pod "nope">', 'the pod does not exist'],
  },
  {
    name: 'the last request returns 200 before any request',
    steps: `${NODE_AND_POD}\nThen the last request returns 200`,
    failingStep: 'the last request returns 200',
    says: ['no API request has been made by an action step yet'],
  },
];
