import type { FieldError } from '../../apimachinery/errors';
import type { Container, PodSpec } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import { validateContainerRestartRules } from './container-restart-rules';
import { validatePodSpecIPs } from './ip-fields';

/** validation.InclusiveRangeError(1, 65535): IsValidPortNum's message. */
const PORT_RANGE = 'must be between 1 and 65535, inclusive';
/** core validation supportedPortProtocols, as NotSupported lists them (sorted). */
const PROTOCOLS = '"SCTP", "TCP", "UDP"';

const isPort = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 65535;

/**
 * pkg/apis/core/validation/validation.go, the parts of ValidatePodSpec a manifest most often gets
 * wrong that the pod strategy (pod-strategy.ts) does not check itself, at `path` (`spec` of a
 * pod, `spec.template.spec` of a template):
 *
 * - validateRestartPolicy: `restartPolicy` one of Always, OnFailure, Never;
 * - validateContainers → validateContainerPorts: `containerPort` a port number, `protocol` one of
 *   SCTP, TCP, UDP;
 * - validateLifecycle → validateHandler: a postStart or preStop hook names exactly one handler
 *   (exec, httpGet, tcpSocket, sleep): none is `Required value: must specify a handler type`,
 *   a second `Forbidden: may not specify more than 1 handler type`; an exec handler needs a command.
 */
export function validatePodSpecRules(spec: PodSpec | undefined, path: string, release?: Release): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec) return errs;
  // V51 validateContainerRestartPolicy, for a template's spec (a pod's own is checked by its strategy).
  if (release) errs.push(...validateContainerRestartRules(spec, path, release));
  const restart = spec.restartPolicy;
  if (restart !== undefined && restart !== 'Always' && restart !== 'OnFailure' && restart !== 'Never') {
    errs.push({
      field: `${path}.restartPolicy`,
      type: 'Unsupported value',
      value: restart,
      detail: 'supported values: "Always", "OnFailure", "Never"',
    });
  }
  const containers = (list: readonly Container[] | undefined, name: string) =>
    (list ?? []).forEach((c, i) => {
      const at = `${path}.${name}[${i}]`;
      (c.ports ?? []).forEach((p, j) => {
        if (!isPort(p.containerPort))
          errs.push({
            field: `${at}.ports[${j}].containerPort`,
            type: 'Invalid',
            value: p.containerPort,
            detail: PORT_RANGE,
          });
        if (p.protocol !== undefined && p.protocol !== 'TCP' && p.protocol !== 'UDP' && p.protocol !== 'SCTP')
          errs.push({
            field: `${at}.ports[${j}].protocol`,
            type: 'Unsupported value',
            value: p.protocol,
            detail: `supported values: ${PROTOCOLS}`,
          });
      });
      for (const hook of ['postStart', 'preStop'] as const) {
        const handler = c.lifecycle?.[hook];
        if (handler) errs.push(...validateHandler(handler as Record<string, unknown>, `${at}.lifecycle.${hook}`));
      }
    });
  containers(spec.initContainers, 'initContainers');
  containers(spec.containers, 'containers');
  // R319 hostAliases and dnsConfig nameservers (a pod's own: podRules).
  if (release) errs.push(...validatePodSpecIPs(spec, path, release));
  return errs;
}

/** validateHandler (LifecycleHandler): the handler types in upstream's order. */
function validateHandler(handler: Record<string, unknown>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  for (const type of ['exec', 'httpGet', 'tcpSocket', 'sleep']) {
    const h = handler[type];
    if (h === undefined || h === null) continue;
    if (count > 0) {
      errs.push({ field: `${path}.${type}`, type: 'Forbidden', detail: 'may not specify more than 1 handler type' });
      continue;
    }
    count++;
    // validateExecAction: a command is required.
    if (type === 'exec' && ((h as { command?: unknown[] }).command ?? []).length === 0)
      errs.push({ field: `${path}.exec.command`, type: 'Required value', detail: '' });
  }
  if (count === 0) errs.push({ field: path, type: 'Required value', detail: 'must specify a handler type' });
  return errs;
}

/** pkg/apis/core/v1/defaults.go SetDefaults_ContainerPort: a port without a protocol is TCP. */
export function setContainerPortDefaults(spec: PodSpec | undefined): void {
  if (!spec) return;
  // Index loops over each list, no spread of both: this runs for every write of every pod, whose
  // spec is then mostly the stored one, and V8 walks frozen arrays slowly with spreads and for-of.
  defaultPortProtocols(spec.initContainers);
  defaultPortProtocols(spec.containers);
}

function defaultPortProtocols(containers: readonly Container[] | undefined): void {
  if (!containers) return;
  for (let i = 0; i < containers.length; i++) {
    const ports = containers[i].ports;
    if (ports) for (let j = 0; j < ports.length; j++) ports[j].protocol ??= 'TCP';
  }
}
