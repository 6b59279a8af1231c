import type { FieldError } from '../apimachinery/errors';
import { genericStrategy } from './generic-strategy';
import type { Strategy } from './strategy';
import type { Service } from '../apimachinery/types';

/** kube-apiserver --service-cluster-ip-range (kubeadm's and kind's default): 10.96.0.0/12. */
export const SERVICE_CIDR = { base: [10, 96, 0, 0] as const, size: 1 << 20 };
/** kube-apiserver --service-node-port-range default: 30000-32767. */
export const NODE_PORT_RANGE = { base: 30000, size: 2768 };

export const SERVICE_STRATEGY_SOURCE =
  'pkg/registry/core/service/strategy.go + pkg/apis/core/v1/defaults.go SetDefaults_Service';

/**
 * N1 — pkg/apis/core/v1/defaults.go SetDefaults_Service (and the IP family defaulting of
 * pkg/registry/core/service/storage): type ClusterIP, sessionAffinity None, every port TCP with
 * targetPort = port, internalTrafficPolicy Cluster, externalTrafficPolicy Cluster for NodePort and
 * LoadBalancer services (none otherwise), a single-stack IPv4 family.
 */
export function setServiceDefaults(svc: Service): void {
  setServiceSchemeDefaults(svc);
  const spec = svc.spec!;
  spec.ipFamilies ??= ['IPv4'];
  spec.ipFamilyPolicy ??= 'SingleStack';
}

/**
 * SetDefaults_Service alone, the scheme's part of N1 that decoding applies (R203): the IP families
 * are the REST storage's (its create), so mutating admission does not see them yet.
 */
export function setServiceSchemeDefaults(svc: Service): void {
  const spec = (svc.spec ??= {});
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  for (const p of spec.ports ?? []) {
    p.protocol ??= 'TCP';
    p.targetPort ??= p.port;
  }
  spec.internalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'NodePort' || spec.type === 'LoadBalancer') spec.externalTrafficPolicy ??= 'Cluster';
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
}

/**
 * N2 — the service IP and node port allocators (pkg/registry/core/service/ipallocator and
 * portallocator, both bitmaps with ServiceIPStaticSubrange, GA in 1.26: dynamic allocations
 * come from the upper band of the range, the lower band is kept for addresses users pick). Upstream
 * picks a random free member of that band; here the lowest free one, so runs repeat. `taken` are
 * the services that exist. An address or port the user asked for is kept (and refused if taken).
 */
export function allocateServiceAddresses(svc: Service, taken: readonly Service[]): FieldError[] {
  const spec = svc.spec!;
  const errs: FieldError[] = [];
  const usedIPs = new Set(taken.map((s) => s.spec?.clusterIP).filter((ip): ip is string => !!ip && ip !== 'None'));
  if (spec.clusterIP === undefined || spec.clusterIP === '') {
    if (spec.type !== 'ExternalName')
      spec.clusterIP = lowestFree(
        staticBand(SERVICE_CIDR.size, 16, 256),
        SERVICE_CIDR.size - 2,
        (i) => usedIPs.has(ipAt(i)),
        ipAt,
      );
  } else if (spec.clusterIP !== 'None' && usedIPs.has(spec.clusterIP)) {
    errs.push({
      field: 'spec.clusterIPs',
      type: 'Invalid',
      value: [spec.clusterIP],
      detail: `failed to allocate IP ${spec.clusterIP}: provided IP is already allocated`,
    });
  }
  if (spec.clusterIP !== undefined) spec.clusterIPs ??= [spec.clusterIP];
  if (spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false)) {
    const usedPorts = new Set(
      taken.flatMap((s) => (s.spec?.ports ?? []).map((p) => p.nodePort)).filter((p): p is number => p !== undefined),
    );
    for (const p of spec.ports ?? []) {
      if (p.nodePort !== undefined) {
        if (usedPorts.has(p.nodePort))
          errs.push({
            field: 'spec.ports[0].nodePort',
            type: 'Invalid',
            value: p.nodePort,
            detail: 'provided port is already allocated',
          });
        usedPorts.add(p.nodePort);
        continue;
      }
      p.nodePort = lowestFree(
        staticBand(NODE_PORT_RANGE.size, 16, 128),
        NODE_PORT_RANGE.size,
        (i) => usedPorts.has(NODE_PORT_RANGE.base + i),
        (i) => NODE_PORT_RANGE.base + i,
      );
      usedPorts.add(p.nodePort);
    }
  }
  return errs;
}

/** calculateRangeOffset: the static band is size/16 (ports: /32), at least `min`, at most `max`. */
function staticBand(size: number, min: number, max: number): number {
  const share = max === 256 ? size / 16 : size / 32;
  return Math.min(Math.max(min, Math.floor(share)), max);
}

function lowestFree<T>(from: number, size: number, used: (i: number) => boolean, at: (i: number) => T): T {
  for (let i = from; i < size; i++) if (!used(i)) return at(i);
  for (let i = 0; i < from; i++) if (!used(i)) return at(i);
  throw new Error('service range exhausted');
}

/** The bitmap's member `index` (ipallocator: the range starts after the network address). */
function ipAt(index: number): string {
  const offset = index + 1;
  const [a, b] = SERVICE_CIDR.base;
  return `${a}.${b + (offset >> 16)}.${(offset >> 8) & 255}.${offset & 255}`;
}

/** N3 — ValidateService, the parts a scenario can get wrong: ports (unless headless), their numbers, the selector's and type's values. */
export function validateService(svc: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const errs: FieldError[] = [];
  // supportedServiceType, listed sorted (sets.List) by NotSupported.
  const types = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
  if (!types.includes(spec.type ?? 'ClusterIP'))
    errs.push({
      field: 'spec.type',
      type: 'Unsupported value',
      value: spec.type,
      detail: `supported values: ${types.map((t) => `"${t}"`).join(', ')}`,
    });
  const ports = spec.ports ?? [];
  if (ports.length === 0 && spec.clusterIP !== 'None' && spec.type !== 'ExternalName')
    errs.push({ field: 'spec.ports', type: 'Required value', detail: '' });
  ports.forEach((p, i) => {
    if (!Number.isInteger(p.port) || p.port < 1 || p.port > 65535)
      errs.push({
        field: `spec.ports[${i}].port`,
        type: 'Invalid',
        value: p.port,
        detail: 'must be between 1 and 65535, inclusive',
      });
    if (ports.length > 1 && !p.name) errs.push({ field: `spec.ports[${i}].name`, type: 'Required value', detail: '' });
    // validateServicePort: supportedPortProtocols (R242).
    if (p.protocol !== undefined && !['SCTP', 'TCP', 'UDP'].includes(p.protocol))
      errs.push({
        field: `spec.ports[${i}].protocol`,
        type: 'Unsupported value',
        value: p.protocol,
        detail: 'supported values: "SCTP", "TCP", "UDP"',
      });
  });
  for (const [field, value] of [
    ['spec.internalTrafficPolicy', spec.internalTrafficPolicy],
    ['spec.externalTrafficPolicy', spec.externalTrafficPolicy],
  ] as const) {
    if (value !== undefined && value !== 'Cluster' && value !== 'Local')
      errs.push({ field, type: 'Unsupported value', value, detail: 'supported values: "Cluster", "Local"' });
  }
  if (spec.externalTrafficPolicy !== undefined && spec.type !== 'NodePort' && spec.type !== 'LoadBalancer') {
    errs.push({
      field: 'spec.externalTrafficPolicy',
      type: 'Invalid',
      value: spec.externalTrafficPolicy,
      detail: "may only be set when `type` is 'NodePort' or 'LoadBalancer'",
    });
  }
  return errs;
}

/** Services: generic (no graceful deletion), defaulted and validated as above; the status subresource holds the load balancer. */
export function serviceStrategy(): Strategy<Service> {
  const base = genericStrategy<Service>({
    kind: 'Service',
    apiVersion: 'v1',
    resource: 'services',
    etcdPrefix: 'services/specs',
    namespaced: true,
  });
  return {
    ...base,
    prepareForCreate(obj, now) {
      base.prepareForCreate(obj, now);
      setServiceDefaults(obj);
      obj.status ??= { loadBalancer: {} };
    },
    validate(obj) {
      return [...base.validate(obj), ...validateService(obj)];
    },
    prepareForUpdate(next, old) {
      setServiceDefaults(next);
      // The allocated addresses stay (a PUT without them keeps them, as the REST storage does).
      next.spec!.clusterIP ??= old.spec?.clusterIP;
      next.spec!.clusterIPs ??= old.spec?.clusterIPs;
      base.prepareForUpdate(next, old);
    },
    validateUpdate(next, old) {
      const errs = [...base.validateUpdate(next, old), ...validateService(next)];
      if (old.spec?.clusterIP && next.spec?.clusterIP !== old.spec.clusterIP)
        errs.push({
          field: 'spec.clusterIPs[0]',
          type: 'Invalid',
          value: next.spec?.clusterIP,
          detail: 'may not change once set',
        });
      return errs;
    },
  };
}
