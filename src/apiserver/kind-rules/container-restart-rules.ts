import type { FieldError } from '../../apimachinery/errors';
import type { Container, PodSpec } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import type { ContainerRestartRule } from '../../helpers/container-restart';

/** A container as KEP-5307 extends it (restartPolicyRules is not in this project's Container type). */
type WithRules = Container & { restartPolicyRules?: readonly ContainerRestartRule[] };

/** The bounds validateContainerRestartPolicy holds a container's rules to. */
const MAX_RULES = 20;
const MAX_EXIT_CODES = 255;

const quoted = (values: readonly string[]) => `supported values: ${values.map((v) => JSON.stringify(v)).join(', ')}`;

/**
 * V51 — pkg/apis/core/validation/validation.go validateContainerRestartPolicy (KEP-5307,
 * kubernetes#132642, v1.34), called by validateInitContainers and validateContainers for every
 * init container (sidecar or not) and every regular container while ContainerRestartRules is on:
 *
 * - rules without the container's own `restartPolicy` are refused (`restartPolicy: Required value`);
 * - the policy is one of Always, OnFailure, Never;
 * - at most 20 rules, each with an action of Restart (and RestartAllContainers while
 *   RestartAllContainersOnContainerExits is on), `exitCodes` given, an operator of In or NotIn
 *   and at most 255 values.
 *
 * The two counts read "Too long: may not be more than N bytes" through v1.35 and "Too many: M:
 * must have at most N items" from v1.36 (kubernetes#137136); an unknown action listed "Restart"
 * alone through v1.35 even with RestartAllContainers allowed, and both from v1.36
 * (kubernetes#137369). With the gate off the fields never reach validation: the pod strategy's
 * dropContainerRestartRules removed them (pod-release-fields.ts).
 */
export function validateContainerRestartRules(spec: PodSpec | undefined, path: string, release: Release): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec) return errs;
  if (!release.enabled('ContainerRestartRules')) {
    // v1.28–v1.33 (before dropContainerRestartRules existed): validateContainers forbids a regular
    // container's policy and validateContainerRestartPolicy takes only Always on an init container
    // (kubernetes#116429). v1.34 with the gate off dropped the fields before validation.
    if (!release.atLeast(28) || release.atLeast(34)) return errs;
    (spec.initContainers ?? []).forEach((c, i) => {
      if (c.restartPolicy !== undefined && c.restartPolicy !== null && c.restartPolicy !== 'Always')
        errs.push({
          field: `${path}.initContainers[${i}].restartPolicy`,
          type: 'Unsupported value',
          value: c.restartPolicy,
          detail: quoted(['Always']),
        });
    });
    spec.containers.forEach((c, i) => {
      if (c.restartPolicy !== undefined && c.restartPolicy !== null)
        errs.push({
          field: `${path}.containers[${i}].restartPolicy`,
          type: 'Forbidden',
          detail: 'may not be set for non-init containers',
        });
    });
    return errs;
  }
  const actions = release.enabled('RestartAllContainersOnContainerExits')
    ? ['Restart', 'RestartAllContainers']
    : ['Restart'];
  // kubernetes#137369: before it the NotSupported error listed the basic set whatever was allowed.
  const listedActions = release.has('RestartRulesListAllActions') ? actions : ['Restart'];
  const tooMany = (field: string, actual: number, max: number): FieldError =>
    release.has('RestartRulesTooManyItems')
      ? { field, type: 'Too many', value: actual, detail: `must have at most ${max} items` }
      : { field, type: 'Too long', detail: `may not be more than ${max} bytes` };

  const visit = (list: readonly WithRules[] | undefined, name: string) =>
    (list ?? []).forEach((c, i) => {
      const at = `${path}.${name}[${i}]`;
      const rules = c.restartPolicyRules ?? [];
      if (c.restartPolicy === undefined || c.restartPolicy === null) {
        if (rules.length > 0)
          errs.push({
            field: `${at}.restartPolicy`,
            type: 'Required value',
            detail: 'must specify restartPolicy when restart rules are used',
          });
        return;
      }
      if (!['Always', 'OnFailure', 'Never'].includes(c.restartPolicy))
        errs.push({
          field: `${at}.restartPolicy`,
          type: 'Unsupported value',
          value: c.restartPolicy,
          detail: quoted(['Always', 'OnFailure', 'Never']),
        });
      if (rules.length > MAX_RULES) errs.push(tooMany(`${at}.restartPolicyRules`, rules.length, MAX_RULES));
      rules.forEach((rule, j) => {
        const ruleAt = `${at}.restartPolicyRules[${j}]`;
        if (!actions.includes(rule.action ?? ''))
          errs.push({
            field: `${ruleAt}.action`,
            type: 'Unsupported value',
            value: rule.action ?? '',
            detail: quoted(listedActions),
          });
        if (!rule.exitCodes) {
          errs.push({ field: `${ruleAt}.exitCodes`, type: 'Required value', detail: 'must be specified' });
          return;
        }
        const operator = rule.exitCodes.operator ?? '';
        if (operator !== 'In' && operator !== 'NotIn')
          errs.push({
            field: `${ruleAt}.exitCodes.operator`,
            type: 'Unsupported value',
            value: operator,
            detail: quoted(['In', 'NotIn']),
          });
        const values = rule.exitCodes.values ?? [];
        if (values.length > MAX_EXIT_CODES)
          errs.push(tooMany(`${ruleAt}.exitCodes.values`, values.length, MAX_EXIT_CODES));
      });
    });
  visit(spec.initContainers as readonly WithRules[] | undefined, 'initContainers');
  visit(spec.containers as readonly WithRules[] | undefined, 'containers');
  return errs;
}
