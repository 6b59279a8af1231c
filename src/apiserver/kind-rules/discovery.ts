import type { FieldError } from '../../apimachinery/errors';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../../apimachinery/selectors';
import type { EndpointSlice } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';
import { jsonEqual } from '../../apimachinery/object';
import type { KindRules } from './index';
import { validateFQDN, validateSliceAddress } from './ip-fields';

/** pkg/apis/discovery/validation: the limits of one slice. */
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 100;
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

const tooMany = (field: string, count: number, max: number): FieldError => ({
  field,
  type: 'Too many',
  value: count,
  detail: `must have at most ${max} items`,
});

/**
 * pkg/apis/discovery/v1/defaults.go SetDefaults_EndpointPort: a port without a name has the name
 * "", without a protocol TCP.
 */
function setEndpointSliceDefaults(slice: EndpointSlice): void {
  for (const port of slice.ports ?? []) {
    if (port === null || typeof port !== 'object') continue;
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

/**
 * pkg/apis/discovery/validation ValidateEndpointSlice: addressType required and one of FQDN, IPv4,
 * IPv6; at most 1000 endpoints, each with 1 to 100 addresses, a hostname that is a DNS-1123 label
 * and a nodeName that is a DNS subdomain (ValidateNodeName); at most 100 ports, each name a
 * DNS-1123 label (when not empty) and unique, each protocol SCTP, TCP or UDP. The addresses of
 * an IPv4 or IPv6 slice are valid, non-special IPs of that family, those of an FQDN slice fully
 * qualified domain names (R319, ip-fields.ts).
 */
function validateEndpointSlice(slice: EndpointSlice, release: Release, old?: EndpointSlice): FieldError[] {
  const errs: FieldError[] = [];
  // KEP-4858 ratcheting (1.33 on): the addresses are checked again only when the endpoints change.
  const checkAddresses = !(release.atLeast(33) && old && jsonEqual(slice.endpoints, old.endpoints));
  const type = (slice as { addressType?: string }).addressType;
  if (type === undefined || type === '') errs.push({ field: 'addressType', type: 'Required value', detail: '' });
  else if (!['IPv4', 'IPv6', 'FQDN'].includes(type))
    errs.push({
      field: 'addressType',
      type: 'Unsupported value',
      value: type,
      detail: 'supported values: "FQDN", "IPv4", "IPv6"',
    });
  const endpoints = slice.endpoints ?? [];
  if (endpoints.length > MAX_ENDPOINTS) errs.push(tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
  else
    endpoints.forEach((ep, i) => {
      const at = `endpoints[${i}]`;
      const addresses = ep?.addresses ?? [];
      if (addresses.length === 0)
        errs.push({ field: `${at}.addresses`, type: 'Required value', detail: 'must contain at least 1 address' });
      else if (addresses.length > MAX_ADDRESSES) errs.push(tooMany(`${at}.addresses`, addresses.length, MAX_ADDRESSES));
      if (checkAddresses)
        addresses.forEach((address, j) => {
          if (type === 'IPv4' || type === 'IPv6') {
            // Its field path is built only for an error: every write of a slice checks every address.
            const addressErrs = validateSliceAddress(i, j, String(address ?? ''), type, release);
            if (addressErrs.length > 0) errs.push(...addressErrs);
          } else if (type === 'FQDN')
            errs.push(...validateFQDN(`${at}.addresses[${j}]`, String(address ?? ''), release));
        });
      if (typeof ep?.nodeName === 'string')
        for (const detail of dns1123SubdomainErrors(ep.nodeName))
          errs.push({ field: `${at}.nodeName`, type: 'Invalid', value: ep.nodeName, detail });
      if (typeof ep?.hostname === 'string')
        for (const detail of dns1123LabelErrors(ep.hostname, release))
          errs.push({ field: `${at}.hostname`, type: 'Invalid', value: ep.hostname, detail });
    });
  const ports = slice.ports ?? [];
  if (ports.length > MAX_PORTS) errs.push(tooMany('ports', ports.length, MAX_PORTS));
  else {
    const names = new Set<string>();
    ports.forEach((port, i) => {
      const at = `ports[${i}]`;
      const name = port?.name ?? '';
      if (name.length > 0)
        for (const detail of dns1123LabelErrors(name, release))
          errs.push({ field: `${at}.name`, type: 'Invalid', value: name, detail });
      if (names.has(name)) errs.push({ field: `${at}.name`, type: 'Duplicate value', value: name, detail: '' });
      else names.add(name);
      const protocol = port?.protocol;
      if (protocol === undefined || protocol === null)
        errs.push({ field: `${at}.protocol`, type: 'Required value', detail: '' });
      else if (!PROTOCOLS.includes(protocol))
        errs.push({
          field: `${at}.protocol`,
          type: 'Unsupported value',
          value: protocol,
          detail: 'supported values: "SCTP", "TCP", "UDP"',
        });
    });
  }
  return errs;
}

/** ValidateEndpointSliceUpdate: the addressType cannot change (ValidateImmutableField). */
function validateEndpointSliceUpdate(next: EndpointSlice, old: EndpointSlice): FieldError[] {
  return next.addressType !== old.addressType
    ? [{ field: 'addressType', type: 'Invalid', value: next.addressType, detail: 'field is immutable' }]
    : [];
}

/** The discovery.k8s.io/v1 EndpointSlice's rules, plugged into its kind module (kinds/other-groups.ts). */
export const endpointSliceRules: KindRules<EndpointSlice> = {
  defaults: setEndpointSliceDefaults,
  validate: validateEndpointSlice,
  validateUpdate: validateEndpointSliceUpdate,
};
