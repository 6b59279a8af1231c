import { type Case, declarationCase, manifestCase, NODE_AND_POD, REFUSED } from './case';

/** R240 R242 — the twelve mistakes of issue 30, each refused at the step that declares it, with kube-apiserver's message. */
export const STRICT_INPUT: Case[] = [
  manifestCase(
    'strict: a misspelt pod field (terminationGracePeriodSecond)',
    'spec:\n  terminationGracePeriodSecond: 10',
    [
      `pod "web" ${REFUSED}`,
      'Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field "spec.terminationGracePeriodSecond"',
    ],
  ),
  manifestCase(
    'strict: a misspelt handler of a preStop hook (slep)',
    'spec:\n  containers:\n    - name: app\n      lifecycle:\n        preStop:\n          slep: {seconds: 5}',
    ['strict decoding error: unknown field "spec.containers[0].lifecycle.preStop.slep"'],
  ),
  manifestCase(
    'strict: a preStop hook without a handler',
    'spec:\n  containers:\n    - name: app\n      lifecycle:\n        preStop: {}',
    [
      `pod "web" ${REFUSED}: Pod "web" is invalid: spec.containers[0].lifecycle.preStop: Required value: must specify a handler type`,
    ],
  ),
  declarationCase('strict: an int64 field given 12.5', 'a job "once" with:', 'spec:\n  activeDeadlineSeconds: 12.5', [
    'Job in version "v1" cannot be handled as a Job: json: cannot unmarshal number 12.5 into Go struct field JobSpec.spec.activeDeadlineSeconds of type int64',
  ]),
  declarationCase(
    'strict: a Deployment strategy "Rolling"',
    'a deployment "api" with 2 replicas with:',
    'spec:\n  strategy:\n    type: Rolling',
    [
      // v1.36 prints the struct as JSON (kubernetes#132314, 1.34); v1.33 printed apps.DeploymentStrategy{Type:"Rolling", …}.
      'Deployment.apps "api" is invalid: spec.strategy: Unsupported value: {"Type":"Rolling",',
      'supported values: "Recreate", "RollingUpdate"',
    ],
  ),
  declarationCase(
    'strict: a misspelt Deployment field (minReadySecond)',
    'a deployment "api" with 2 replicas with:',
    'spec:\n  minReadySecond: 5',
    [
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.minReadySecond"',
    ],
  ),
  declarationCase(
    'strict: a Service field at the wrong depth (spec.selectr)',
    'a service "web" with:',
    'spec:\n  selectr:\n    app: web',
    ['Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.selectr"'],
  ),
  declarationCase('strict: a misspelt Job field (backofLimit)', 'a job "once" with:', 'spec:\n  backofLimit: 2', [
    'Job in version "v1" cannot be handled as a Job: strict decoding error: unknown field "spec.backofLimit"',
  ]),
  declarationCase(
    'strict: a misspelt StatefulSet field (podManagmentPolicy)',
    'a statefulset "db" with 1 replicas with:',
    'spec:\n  podManagmentPolicy: Parallel',
    [
      'StatefulSet in version "v1" cannot be handled as a StatefulSet: strict decoding error: unknown field "spec.podManagmentPolicy"',
    ],
  ),
  declarationCase(
    'strict: a DaemonSet whose selector does not match its template',
    'a daemonset "agent" with:',
    'spec:\n  selector:\n    matchLabels: {app: other}',
    [
      // v1.33 printed map[string]string{"app":"agent"} (Go's %#v); JSON from 1.34 (kubernetes#132314).
      'DaemonSet.apps "agent" is invalid: spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`',
    ],
  ),
  declarationCase(
    'strict: a misspelt PodDisruptionBudget field (minAvailabel)',
    'a pod disruption budget "budget" with:',
    'spec:\n  minAvailabel: 1\n  selector: {matchLabels: {app: web}}',
    [
      'PodDisruptionBudget in version "v1" cannot be handled as a PodDisruptionBudget: strict decoding error: unknown field "spec.minAvailabel"',
    ],
  ),
  declarationCase(
    'strict: a configmap in a namespace the scenario does not declare',
    'a configmap "settings" with:',
    'metadata:\n  namespace: shop\ndata: {mode: fast}',
    ['unknown namespace "shop" for configmap "settings"', 'Given a namespace "shop"'],
  ),
  {
    name: 'strict: deleting a pod the scenario never declared (a typo)',
    steps: `${NODE_AND_POD}\nWhen the user deletes pod "wbe"\nThen pod "web" exists`,
    failingStep: 'the user deletes pod "wbe"',
    says: ['pod "wbe" was never declared; pods so far: web'],
  },
];
