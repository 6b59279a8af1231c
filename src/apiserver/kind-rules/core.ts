import { type FieldError, goJson } from '../../apimachinery/errors';
import { dns1123LabelErrors, labelValueErrors, qualifiedNameErrors } from '../../apimachinery/selectors';
import type { ConfigMap, Endpoints, Node, Pod, Secret, Service, ServiceAccount, Taint } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import { jsonEqual } from '../../apimachinery/object';
import type { KindRules } from './index';
import {
  validateEndpointsAddressIP,
  validatePodCIDREntries,
  validatePodSpecIPs,
  validateServiceIPs,
} from './ip-fields';
import { validateNodePodCIDRs } from './node-pod-cidrs';
import { setContainerPortDefaults, validatePodSpecRules } from './pod-spec';

/** pkg/apis/core/types.go MaxSecretSize: what the values of a ConfigMap or a Secret may total. */
const MAX_SECRET_SIZE = 1024 * 1024;

/**
 * field.TooLong (apimachinery/pkg/util/validation/field/errors.go): `must have at most N bytes`
 * up to 1.31, `may not be more than N bytes` from 1.32 (kubernetes#128553,
 * release.has('TooLongMayNotBeMoreThan')). It prints no value.
 */
function tooLong(field: string, max: number, release: Release): FieldError {
  const detail = release.has('TooLongMayNotBeMoreThan')
    ? `may not be more than ${max} ${max === 1 && release.has('FieldErrorValuesAsJson') ? 'byte' : 'bytes'}`
    : `must have at most ${max} bytes`;
  return { field, type: 'Too long', detail };
}

/** The bytes of a []byte field as it arrives in JSON: base64 text, decoded. */
const base64Bytes = (v: unknown) => (typeof v === 'string' ? Buffer.from(v, 'base64').length : 0);

/**
 * ValidateConfigMap's size check (its keys are checked by the ConfigMap strategy,
 * configmap-strategy.ts): the bytes of every `data` value (UTF-8) and `binaryData` value together
 * at most MaxSecretSize, else `[]: Too long: …` — the field is field.NewPath(""), which prints
 * as `[]`, for the whole object.
 */
function validateConfigMapSize(cm: ConfigMap, release: Release): FieldError[] {
  let total = 0;
  for (const v of Object.values(cm.data ?? {})) total += typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : 0;
  for (const v of Object.values(cm.binaryData ?? {})) total += base64Bytes(v);
  return total > MAX_SECRET_SIZE ? [tooLong('[]', MAX_SECRET_SIZE, release)] : [];
}

/** ValidateSecret's size check: the decoded `data` values together at most MaxSecretSize, else `data: Too long: …`. */
function validateSecretSize(secret: Secret, release: Release): FieldError[] {
  let total = 0;
  for (const v of Object.values(secret.data ?? {})) total += base64Bytes(v);
  return total > MAX_SECRET_SIZE ? [tooLong('data', MAX_SECRET_SIZE, release)] : [];
}

/**
 * pkg/registry/core/serviceaccount/strategy.go cleanSecretReferences, on create and on update:
 * each reference in `secrets` keeps only its name.
 */
function cleanSecretReferences(sa: ServiceAccount): void {
  if (Array.isArray(sa.secrets)) sa.secrets = sa.secrets.map((ref) => ({ name: ref?.name }));
}

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/**
 * The internal core.Taint a Duplicate error prints: `%#v` up to 1.33 (a timeAdded that is set is a
 * pointer, printed as an address: a fixed stand-in here), its JSON from 1.34 (Go's field names).
 */
function goTaint(t: Taint, release: Release): string {
  if (release.has('FieldErrorValuesAsJson'))
    return goJson({ Key: t.key ?? '', Value: t.value ?? '', Effect: t.effect ?? '', TimeAdded: t.timeAdded ?? null });
  return `core.Taint{Key:${JSON.stringify(t.key ?? '')}, Value:${JSON.stringify(t.value ?? '')}, Effect:${JSON.stringify(t.effect ?? '')}, TimeAdded:(*v1.Time)(${t.timeAdded ? '0xc000000000' : 'nil'})}`;
}

/**
 * ValidateNode's taints (validateNodeTaints): each key a qualified name (ValidateLabelName), each
 * value a label value, each effect NoSchedule, PreferNoSchedule or NoExecute (validateTaintEffect:
 * required, else NotSupported), and no two taints with the same key and effect (Duplicate, `taints
 * must be unique by key and effect pair`).
 */
function validateNode(node: Node, release: Release, old?: Node): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (node.spec?.taints ?? []).forEach((t, i) => {
    const at = `spec.taints[${i}]`;
    const key = t.key ?? '';
    for (const detail of qualifiedNameErrors(key))
      errs.push({ field: `${at}.key`, type: 'Invalid', value: key, detail });
    const valueErrs = labelValueErrors(t.value ?? '');
    if (valueErrs.length > 0)
      errs.push({ field: `${at}.value`, type: 'Invalid', value: t.value ?? '', detail: valueErrs.join(';') });
    const effect = t.effect ?? '';
    if (effect === '') errs.push({ field: `${at}.effect`, type: 'Required value', detail: '' });
    else if (!TAINT_EFFECTS.includes(effect))
      errs.push({
        field: `${at}.effect`,
        type: 'Unsupported value',
        value: effect,
        detail: 'supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      });
    const pair = JSON.stringify([effect, key]);
    if (seen.has(pair)) {
      errs.push({
        field: at,
        type: 'Duplicate value',
        printedValue: goTaint(t, release),
        detail: 'taints must be unique by key and effect pair',
      });
      return;
    }
    seen.add(pair);
  });
  errs.push(
    ...validatePodCIDREntries(podCIDRs(node), release, old && podCIDRs(old)),
    ...validateNodePodCIDRs(node, release),
  );
  return errs;
}

/** A node's pod CIDRs as the internal type holds them: podCIDRs, or the single podCIDR (v1 conversion). */
function podCIDRs(node: Node): readonly string[] {
  const list = node.spec?.podCIDRs ?? [];
  if (list.length > 0) return list;
  return node.spec?.podCIDR ? [node.spec.podCIDR] : [];
}

/**
 * ValidateNodeUpdate: once a node has pod CIDRs (the node IPAM controller or the kubelet sets
 * them) they cannot change; once it has a providerID, neither can that.
 */
function validateNodeUpdate(next: Node, old: Node): FieldError[] {
  const errs: FieldError[] = [];
  const before = podCIDRs(old);
  const after = podCIDRs(next);
  const forbidden = (field: string, what: string): FieldError => ({
    field,
    type: 'Forbidden',
    detail: `node updates may not change ${what} except from "" to valid`,
  });
  if (before.length > 0) {
    if (before.length !== after.length) errs.push(forbidden('spec.podCIDRs', 'podCIDR'));
    else before.forEach((cidr, i) => cidr !== after[i] && errs.push(forbidden('spec.podCIDRs', 'podCIDR')));
  }
  const provider = old.spec?.providerID ?? '';
  if (provider !== '' && provider !== (next.spec?.providerID ?? ''))
    errs.push(forbidden('spec.providerID', 'providerID'));
  return errs;
}

/** pkg/apis/core/v1/defaults.go SetDefaults_Endpoints: a port without a protocol is TCP. */
function setEndpointsDefaults(ep: Endpoints): void {
  for (const subset of ep.subsets ?? [])
    for (const port of subset?.ports ?? []) if (port && typeof port === 'object') port.protocol ??= 'TCP';
}

/**
 * ValidateEndpoints (validateEndpointSubsets, validateEndpointPort): each subset has `addresses`
 * or `notReadyAddresses`; each port has a name when the subset has more than one (a DNS-1123
 * label when set), a number from 1 to 65535 and a protocol SCTP, TCP or UDP; each address's `ip`
 * a valid, non-special IP (validateEndpointAddress, R319). Node names are not checked here.
 */
function validateEndpoints(ep: Endpoints, release: Release, old?: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  // KEP-4858 ratcheting (1.33 on): the addresses are checked again only when the subsets change.
  const checkIPs = !(release.atLeast(33) && old && jsonEqual(ep.subsets, old.subsets));
  (ep.subsets ?? []).forEach((subset, i) => {
    const at = `subsets[${i}]`;
    if ((subset?.addresses ?? []).length === 0 && (subset?.notReadyAddresses ?? []).length === 0)
      errs.push({ field: at, type: 'Required value', detail: 'must specify `addresses` or `notReadyAddresses`' });
    if (checkIPs)
      for (const list of ['addresses', 'notReadyAddresses'] as const)
        (subset?.[list] ?? []).forEach((address, j) =>
          errs.push(...validateEndpointsAddressIP(`${at}.${list}[${j}].ip`, address?.ip, release)),
        );
    const ports = subset?.ports ?? [];
    ports.forEach((port, j) => {
      const portAt = `${at}.ports[${j}]`;
      const name = port?.name ?? '';
      if (ports.length > 1 && name === '') errs.push({ field: `${portAt}.name`, type: 'Required value', detail: '' });
      else if (name !== '')
        for (const detail of dns1123LabelErrors(name, release))
          errs.push({ field: `${portAt}.name`, type: 'Invalid', value: name, detail });
      const number = port?.port;
      if (typeof number !== 'number' || number < 1 || number > 65535)
        errs.push({
          field: `${portAt}.port`,
          type: 'Invalid',
          value: number ?? 0,
          detail: 'must be between 1 and 65535, inclusive',
        });
      const protocol = port?.protocol ?? '';
      if (protocol === '') errs.push({ field: `${portAt}.protocol`, type: 'Required value', detail: '' });
      else if (!['SCTP', 'TCP', 'UDP'].includes(protocol))
        errs.push({
          field: `${portAt}.protocol`,
          type: 'Unsupported value',
          value: protocol,
          detail: 'supported values: "SCTP", "TCP", "UDP"',
        });
    });
  });
  return errs;
}

/** The core/v1 kinds' rules, each plugged into its kind module (kinds/core.ts). */
export const podRules: KindRules<Pod> = {
  defaults: (pod) => setContainerPortDefaults(pod.spec),
  validate: (pod, release, old) => [
    ...validatePodSpecRules(pod.spec, 'spec'),
    ...validatePodSpecIPs(pod.spec, 'spec', release, old?.spec),
  ],
};
export const endpointsRules: KindRules<Endpoints> = { defaults: setEndpointsDefaults, validate: validateEndpoints };
export const configMapRules: KindRules<ConfigMap> = { validate: validateConfigMapSize };
export const secretRules: KindRules<Secret> = { validate: validateSecretSize };
export const serviceAccountRules: KindRules<ServiceAccount> = { defaults: cleanSecretReferences };
export const nodeRules: KindRules<Node> = { validate: validateNode, validateUpdate: validateNodeUpdate };
/** A Service's address fields (R319); the rest of ValidateService is the strategy's (service-strategy.ts). */
export const serviceRules: KindRules<Service> = { validate: validateServiceIPs };
