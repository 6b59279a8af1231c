import { type FieldError, goJson } from '../../apimachinery/errors';
import type { Node } from '../../apimachinery/types';
import type { Release } from '../../foundation/release';

type Family = 'IPv4' | 'IPv6';

/**
 * The IP family of a CIDR every modelled release accepts as it is: an IPv4 or IPv6 subnet in
 * canonical form with no bits set beyond the prefix length. Undefined for anything else, whose
 * messages this model does not produce (see validateNodePodCIDRs).
 */
export function canonicalCIDRFamily(cidr: string): Family | undefined {
  const match = /^([0-9a-f.:]+)\/(0|[1-9][0-9]{0,2})$/.exec(cidr);
  if (!match) return undefined;
  const [, address, prefixText] = match;
  const prefix = Number(prefixText);
  if (!address.includes(':')) {
    const octets = address.split('.');
    if (octets.length !== 4 || octets.some((o) => !/^(0|[1-9][0-9]{0,2})$/.test(o) || Number(o) > 255))
      return undefined;
    if (prefix > 32) return undefined;
    const value = octets.reduce((n, o) => n * 256n + BigInt(o), 0n);
    return value & ((1n << BigInt(32 - prefix)) - 1n) ? undefined : 'IPv4';
  }
  if (address.includes('.') || prefix > 128) return undefined;
  let canonical: string;
  try {
    // The WHATWG URL parser prints IPv6 as RFC 5952 does (lowercase, the first longest run of two
    // or more zero groups compressed), which is also how Go's net.IP prints it.
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  if (canonical !== address) return undefined;
  const full = address.includes('::')
    ? (() => {
        const [head, tail] = address.split('::');
        const h = head ? head.split(':') : [];
        const t = tail ? tail.split(':') : [];
        return [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
      })()
    : address.split(':');
  const value = full.reduce((n, g) => n * 65536n + BigInt(`0x${g}`), 0n);
  return value & ((1n << BigInt(128 - prefix)) - 1n) ? undefined : 'IPv6';
}

/**
 * pkg/apis/core/validation ValidateNode, its pod CIDR checks on `spec.podCIDRs` (a v1 body with only
 * `podCIDR` is converted to a one-element podCIDRs): with two or more, they must be dual-stack and at
 * most two (netutils.IsDualStackCIDRStrings; `may specify no more than one CIDR for each IP family`,
 * the whole list as the value) and without duplicates (`spec.podCIDRs[1]: Duplicate value: …`).
 * Modelled only when every entry is a canonical CIDR: the per-entry format messages changed with the
 * stricter IP/CIDR validation (KEP-4858, apimachinery IsValidCIDR, 1.33 on) and are not modelled, so
 * a list holding any other value is stored as written.
 */
export function validateNodePodCIDRs(node: Node, release: Release): FieldError[] {
  const list = node.spec?.podCIDRs ?? [];
  if (list.length < 2) return [];
  const families = list.map((c) => (typeof c === 'string' ? canonicalCIDRFamily(c) : undefined));
  if (families.some((f) => f === undefined)) return [];
  const errs: FieldError[] = [];
  const dualStack = families.includes('IPv4') && families.includes('IPv6');
  if (!dualStack || list.length > 2)
    errs.push({
      field: 'spec.podCIDRs',
      type: 'Invalid',
      printedValue: release.has('FieldErrorValuesAsJson')
        ? goJson(list)
        : `[]string{${list.map((c) => JSON.stringify(c)).join(', ')}}`,
      detail: 'may specify no more than one CIDR for each IP family',
    });
  const seen = new Set<string>();
  list.forEach((cidr, i) => {
    if (seen.has(cidr)) errs.push({ field: `spec.podCIDRs[${i}]`, type: 'Duplicate value', value: cidr, detail: '' });
    seen.add(cidr);
  });
  return errs;
}
