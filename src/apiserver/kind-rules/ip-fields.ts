import { type FieldError, goJson } from '../../apimachinery/errors';
import type { PodSpec, Service } from '../../apimachinery/types';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../../apimachinery/selectors';
import {
  isIPv4,
  isValidCIDRForLegacyField,
  isValidIPForLegacyField,
  parseCIDRSloppy,
  parseIPSloppy,
  validateEndpointIP,
} from '../../apimachinery/ip';
import type { Release } from '../../foundation/release';

/**
 * R319 — the IP and CIDR fields of the core and discovery kinds, release by release
 * (pkg/apis/core/validation and pkg/apis/discovery/validation; apimachinery util/validation ip.go).
 *
 * Every release takes what the sloppy parser takes (leading zeros, IPv4-mapped IPv6); with the
 * StrictIPCIDRValidation gate (α 1.33, β on 1.36) those are refused too, and a CIDR may not have
 * bits set beyond its prefix. From 1.33 an update ratchets (KEP-4858): a value the stored object
 * already had in that field stays accepted (validOldIPs / validOldCIDRs), and an Endpoints' or
 * EndpointSlice's addresses are not checked again while its `subsets` / `endpoints` are unchanged;
 * this matters for objects a restored dump (explain) put in storage without validation.
 */

const strict = (release: Release) => release.enabled('StrictIPCIDRValidation');

/**
 * The values an update may keep as they are (validOldIPs / validOldCIDRs, 1.33 on, apimachinery
 * 71867013): the same field's values in the stored object. Before 1.33 every stored value passed
 * the same (sloppy) check, so none is needed.
 */
const validOld = (release: Release, values: readonly (string | undefined)[] | undefined): string[] =>
  release.atLeast(33) ? (values ?? []).filter((v): v is string => typeof v === 'string') : [];

/** core validation IsValidIPForLegacyField (1.33 on) / validation.IsValidIP (before): the same text when not strict. */
export function legacyIP(field: string, value: string, release: Release, old: readonly string[] = []): FieldError[] {
  return isValidIPForLegacyField(field, value, strict(release), old);
}

/** core validation IsValidCIDRForLegacyField (1.33 on) / validation.IsValidCIDR (1.30–1.32). */
export function legacyCIDR(field: string, value: string, release: Release, old: readonly string[] = []): FieldError[] {
  return isValidCIDRForLegacyField(field, value, strict(release), old);
}

/**
 * validateEndpointAddress: an Endpoints address's `ip` is a valid IP (legacy field) and not a
 * special one (ValidateNonSpecialIP, named ValidateEndpointIP from 1.32). Both run: an address
 * the parser refuses is reported twice, the second time without the example.
 */
export function validateEndpointsAddressIP(field: string, value: unknown, release: Release): FieldError[] {
  const ip = typeof value === 'string' ? value : '';
  return [...legacyIP(field, ip, release), ...validateEndpointIP(field, ip)];
}

/**
 * validateEndpoints of pkg/apis/discovery/validation, one address of an IPv4 or IPv6 slice:
 * - up to 1.32: IsValidIPv4Address / IsValidIPv6Address (`must be a valid IPv4 address`; an
 *   IPv4-mapped IPv6 address counts as IPv4) and then ValidateNonSpecialIP, both always;
 * - from 1.33 (EndpointSliceAddressCheckedOnce): the legacy IP check; only a valid address is then
 *   checked for its family — `must be an IPv4 address`, reported on `endpoints[i].addresses`
 *   without the index, as upstream's code at kubernetes ba189de7 does — and for its range.
 * FQDN addresses (IsFullyQualifiedDomainName) are not checked here.
 */
export function validateSliceAddress(
  endpoint: number,
  index: number,
  address: string,
  family: 'IPv4' | 'IPv6',
  release: Release,
): FieldError[] {
  const valid = validSliceAddresses(release, family);
  if (valid.has(address)) return [];
  const errs = sliceAddressErrors(`endpoints[${endpoint}].addresses`, index, address, family, release);
  if (errs.length === 0) {
    if (valid.size >= VALID_LIMIT) valid.clear();
    valid.add(address);
  }
  return errs;
}

/**
 * The addresses validateSliceAddress found valid, by release and family. Whether an address is
 * valid depends on nothing else (its place only names the error), and every write of a
 * 100-endpoint slice checks its 100 addresses again, though one pod changed. Bounded: emptied
 * when it reaches VALID_LIMIT addresses.
 */
const validAddresses = new WeakMap<Release, { IPv4: Set<string>; IPv6: Set<string> }>();
const VALID_LIMIT = 1 << 16;

/** The release asked last and its sets: a slice's addresses are checked one after the other for one release. */
let lastRelease: Release | undefined;
let lastSets: { IPv4: Set<string>; IPv6: Set<string> } = { IPv4: new Set(), IPv6: new Set() };

function validSliceAddresses(release: Release, family: 'IPv4' | 'IPv6'): Set<string> {
  if (release !== lastRelease) {
    let byFamily = validAddresses.get(release);
    if (byFamily === undefined) validAddresses.set(release, (byFamily = { IPv4: new Set(), IPv6: new Set() }));
    lastRelease = release;
    lastSets = byFamily;
  }
  return lastSets[family];
}

function sliceAddressErrors(
  at: string,
  index: number,
  address: string,
  family: 'IPv4' | 'IPv6',
  release: Release,
): FieldError[] {
  const field = `${at}[${index}]`;
  const ip = parseIPSloppy(address);
  const rightFamily = ip !== undefined && isIPv4(ip) === (family === 'IPv4');
  if (!release.has('EndpointSliceAddressCheckedOnce')) {
    const errs: FieldError[] = rightFamily
      ? []
      : [{ field, type: 'Invalid', value: address, detail: `must be a valid ${family} address` }];
    return [...errs, ...validateEndpointIP(field, address)];
  }
  const ipErrs = legacyIP(field, address, release);
  if (ipErrs.length > 0) return ipErrs;
  const errs: FieldError[] = rightFamily
    ? []
    : [{ field: at, type: 'Invalid', value: address, detail: `must be an ${family} address` }];
  return [...errs, ...validateEndpointIP(field, address)];
}

/**
 * ValidateNode's pod CIDRs, each entry: from 1.30 IsValidCIDR (a legacy field from 1.33); up to 1.29 ValidateCIDR's `must be valid CIDR`, the whole
 * list as the value (Go's %#v of a []string).
 * (From 1.33 upstream accepts the stored node's CIDRs as they are on an update: see above.)
 */
export function validatePodCIDREntries(
  list: readonly string[],
  release: Release,
  oldList?: readonly string[],
): FieldError[] {
  const old = validOld(release, oldList);
  const errs: FieldError[] = [];
  list.forEach((cidr, i) => {
    const field = `spec.podCIDRs[${i}]`;
    if (release.has('IPValidationCleanup')) errs.push(...legacyCIDR(field, cidr, release, old));
    else if (!parseCIDRSloppy(cidr))
      errs.push({
        field,
        type: 'Invalid',
        printedValue: `[]string{${list.map((c) => JSON.stringify(c)).join(', ')}}`,
        detail: 'must be valid CIDR',
      });
  });
  return errs;
}

/**
 * ValidateService's loadBalancerSourceRanges (each value trimmed of spaces first, "a historical
 * accident"), at the field path upstream spells `spec.LoadBalancerSourceRanges`: from 1.30 each
 * entry IsValidCIDR; up to 1.29 one error for the list (GetLoadBalancerSourceRanges), its value
 * printed as Go's %v of the list, `[a b]`, the detail ending in a space as upstream's does.
 */
export function validateSourceRanges(ranges: readonly string[], release: Release, old: string[] = []): FieldError[] {
  const at = 'spec.LoadBalancerSourceRanges';
  if (!release.has('IPValidationCleanup')) {
    if (ranges.every((r) => parseCIDRSloppy(r.trim()))) return [];
    return [
      {
        field: at,
        type: 'Invalid',
        value: `[${ranges.join(' ')}]`,
        detail: 'must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ',
      } satisfies FieldError,
    ];
  }
  return ranges.flatMap((r, i) => legacyCIDR(`${at}[${i}]`, r.trim(), release, old));
}

/** A []string field error value: Go's %#v up to 1.33, JSON from 1.34 (FieldErrorValuesAsJson). */
function stringList(list: readonly string[], release: Release): string {
  return release.has('FieldErrorValuesAsJson')
    ? goJson(list)
    : `[]string{${list.map((c) => JSON.stringify(c)).join(', ')}}`;
}

/**
 * ValidateService's address fields (not of an ExternalName service, whose clusterIPs are refused
 * elsewhere): each `spec.clusterIPs` entry a valid IP, `None` only as the first and only one
 * (ValidateServiceClusterIPsRelatedFields); each `spec.externalIPs` entry a valid IP that is not
 * a special one (ValidateNonSpecialIP / ValidateEndpointIP, only when the IP is valid); the
 * loadBalancerSourceRanges (above) and only on a LoadBalancer (`may only be used when `type` is
 * 'LoadBalancer'`). The dual-stack rules of clusterIPs and ipFamilies are not modelled.
 */
export function validateServiceIPs(svc: Service, release: Release, old?: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const oldClusterIPs = validOld(release, old?.spec?.clusterIPs);
  const oldExternalIPs = validOld(release, old?.spec?.externalIPs);
  const errs: FieldError[] = [];
  const clusterIPs = spec.clusterIPs ?? [];
  if (spec.type !== 'ExternalName')
    clusterIPs.forEach((ip, i) => {
      if (i === 0 && ip === 'None') {
        if (clusterIPs.length > 1)
          errs.push({
            field: 'spec.clusterIPs',
            type: 'Invalid',
            printedValue: stringList(clusterIPs, release),
            detail: "'None' must be the first and only value",
          });
        return;
      }
      errs.push(...legacyIP(`spec.clusterIPs[${i}]`, ip, release, oldClusterIPs));
    });
  (spec.externalIPs ?? []).forEach((ip, i) => {
    const field = `spec.externalIPs[${i}]`;
    const ipErrs = legacyIP(field, ip, release, oldExternalIPs);
    errs.push(...(ipErrs.length > 0 ? ipErrs : validateEndpointIP(field, ip)));
  });
  const ranges = spec.loadBalancerSourceRanges ?? [];
  if (ranges.length > 0) {
    if (spec.type !== 'LoadBalancer')
      errs.push({
        field: 'spec.LoadBalancerSourceRanges',
        type: 'Forbidden',
        detail: "may only be used when `type` is 'LoadBalancer'",
      });
    errs.push(...validateSourceRanges(ranges, release, validOld(release, old?.spec?.loadBalancerSourceRanges)));
  }
  return errs;
}

/**
 * ValidatePodSpec's address fields: each `hostAliases[i].ip` (ValidateHostAliases, with each
 * hostname a DNS-1123 subdomain) and each `dnsConfig.nameservers[i]` (validatePodDNSConfig) a
 * valid IP (a legacy field). Up to 1.29 (IPValidationCleanup) ParseIPSloppy with `must be valid IP
 * address`, and ValidateHostAliases' paths lack the index: `spec.hostAliases.ip`,
 * `spec.hostAliases.hostnames`.
 */
export function validatePodSpecIPs(
  spec: PodSpec | undefined,
  path: string,
  release: Release,
  oldSpec?: PodSpec,
): FieldError[] {
  const errs: FieldError[] = [];
  const cleanup = release.has('IPValidationCleanup');
  const oldAliases = validOld(
    release,
    (oldSpec?.hostAliases ?? []).map((a) => a?.ip),
  );
  const oldNameservers = validOld(release, oldSpec?.dnsConfig?.nameservers);
  const ipCheck = (field: string, ip: string, old: readonly string[]): FieldError[] => {
    if (cleanup) return legacyIP(field, ip, release, old);
    return parseIPSloppy(ip) ? [] : [{ field, type: 'Invalid', value: ip, detail: 'must be valid IP address' }];
  };
  (spec?.hostAliases ?? []).forEach((alias, i) => {
    const at = cleanup ? `${path}.hostAliases[${i}]` : `${path}.hostAliases`;
    errs.push(...ipCheck(`${at}.ip`, String(alias?.ip ?? ''), oldAliases));
    (alias?.hostnames ?? []).forEach((hostname, j) => {
      const field = cleanup ? `${at}.hostnames[${j}]` : `${at}.hostnames`;
      for (const detail of dns1123SubdomainErrors(String(hostname)))
        errs.push({ field, type: 'Invalid', value: hostname, detail });
    });
  });
  (spec?.dnsConfig?.nameservers ?? []).forEach((ns, i) =>
    errs.push(...ipCheck(`${path}.dnsConfig.nameservers[${i}]`, String(ns), oldNameservers)),
  );
  return errs;
}

/**
 * validation.IsFullyQualifiedDomainName, an address of an FQDN EndpointSlice: required; less a
 * trailing dot, a DNS-1123 subdomain of at least two labels, each a DNS-1123 label (the first
 * failing label is the value reported). The same in every modelled release.
 */
export function validateFQDN(field: string, value: string, release: Release): FieldError[] {
  if (value === '') return [{ field, type: 'Required value', detail: '' }];
  const name = value.endsWith('.') ? value.slice(0, -1) : value;
  const subdomain = dns1123SubdomainErrors(name);
  if (subdomain.length > 0) return [{ field, type: 'Invalid', value: name, detail: subdomain.join(',') }];
  const labels = name.split('.');
  if (labels.length < 2)
    return [
      {
        field,
        type: 'Invalid',
        value: name,
        detail: 'should be a domain with at least two segments separated by dots',
      },
    ];
  for (const label of labels) {
    const errs = dns1123LabelErrors(label, release);
    if (errs.length > 0) return [{ field, type: 'Invalid', value: label, detail: errs.join(',') }];
  }
  return [];
}
