import { defineParameterType } from '@cucumber/cucumber';
import { parseDuration } from '../../src/foundation/duration';
import { Release } from '../../src/foundation/release';
import { parseTarget } from '../../src/cluster/perturbation/perturbation';
import { transformerForTheAuthor } from './user-mistakes';

/**
 * `{duration}`: 30s, 1.5s, 2m, 1h, 500ms, 1m30s → milliseconds (src/foundation/duration.ts, which the `T+…` cells use too). The pattern is deliberately loose so
 * that a bad value (`30`, `-5s`, `1x`, and a unit written apart: `5 s`, `2 minutes`) reaches the
 * transformer and fails with a clear message instead of leaving the step undefined.
 */
defineParameterType({
  name: 'duration',
  regexp: /-?[0-9][\w.]*(?: (?:ms|s|m|h|secs?|seconds?|mins?|minutes?|hours?)\b)?/,
  transformer: transformerForTheAuthor(parseDuration),
});

/** `{command}`: a command line in backquotes, e.g. `kubectl delete pod web --force`. */
defineParameterType({
  name: 'command',
  regexp: /`([^`]*)`/,
  transformer: (text: string) => text,
});

/**
 * `{release}`: a Kubernetes release, v1.30 or 1.30 → Release. Loose enough that an unsupported
 * one (v1.25, 1.36, v2.1) reaches the transformer and fails naming the supported range, but only
 * a version: a pattern matching any word made cucumber suggest `{release}` in the snippet of
 * every undefined step.
 */
defineParameterType({
  name: 'release',
  regexp: /v?\d+\.\d+/,
  transformer: transformerForTheAuthor((text: string) => Release.parse(text)),
});

/**
 * `{kind}`: a served kind other than pod, as a scenario names it (singular, lower case, or any
 * name kubectl takes: plural, short name, `plural.group`): replicaset, deployment, statefulset,
 * daemonset, job, controllerrevision, node, event, configmap, secret, service,
 * poddisruptionbudget, namespace, endpointslice, … and the kinds of custom resource definitions
 * the scenario declares. The step resolves the word (an unknown one fails naming what is served).
 * Pods have their own steps, so `pod "web" has fields:` stays the contract's pod step.
 */
defineParameterType({
  name: 'kind',
  regexp: /(?!pod\b)[a-z][a-z0-9]*(?:\.[a-z0-9-]+)*/,
  transformer: (text: string) => text,
  // It matches any word: cucumber must not offer it in the snippet of an undefined step.
  useForSnippets: false,
});

/**
 * `{component}`: a component whose view of the cluster a perturbation changes (src/cluster/perturbation/):
 * a controller (`endpointslice controller`, `disruption controller`), `kubelet on node "node-1"`,
 * `kube-proxy on node "node-1"`, `load balancer of service "web"`, the `scheduler`, or a served client by its
 * User-Agent, `client "database-operator"`. Loose enough that an unknown controller reaches the
 * transformer and fails listing the known ones.
 */
defineParameterType({
  name: 'component',
  regexp:
    /kubelet on node "[^"]*"|kube-proxy on node "[^"]*"|load balancer of service "[^"]*"|client "[^"]*"|(?:kube-)?scheduler|[a-z][a-z-]* controller|[a-z][a-z-]*-controller/,
  transformer: transformerForTheAuthor(parseTarget),
});
