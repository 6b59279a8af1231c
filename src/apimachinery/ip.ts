import type { FieldError } from './errors';

/**
 * IP addresses and CIDR values as Kubernetes parses and validates them.
 *
 * Two parsers, as upstream has two:
 * - the "sloppy" one, k8s.io/utils/net ParseIPSloppy / ParseCIDRSloppy: forks of Go 1.16's
 *   net.ParseIP / net.ParseCIDR, which ignore leading zeros in IPv4 octets ("010.1.2.3" is
 *   10.1.2.3) and take IPv4-mapped IPv6 addresses ("::ffff:1.2.3.4");
 * - the strict one, Go's net/netip ParseAddr / ParsePrefix, which refuse both (and a CIDR's
 *   prefix length with a leading zero).
 *
 * Built on them, k8s.io/apimachinery/pkg/util/validation: IsValidIP / IsValidCIDR (sloppy only up
 * to 1.32, validation.go) and, from 1.33, ip.go's IsValidIPForLegacyField /
 * IsValidCIDRForLegacyField (sloppy, plus the strict checks when the StrictIPCIDRValidation gate
 * is on: KEP-4858, kubernetes#128786).
 */

/** An address as Go's net.IP holds it: 16 bytes (an IPv4 address as ::ffff:a.b.c.d). */
export type IPBytes = readonly number[];

const V4_IN_V6_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** Go's dtoi: a decimal number of at least one digit, leading zeros allowed; undefined past 0xFFFFFF. */
function decimal(s: string): number | undefined {
  if (!/^[0-9]+$/.test(s)) return undefined;
  const n = Number(s.length > 8 ? s.replace(/^0+(?=.)/, '') : s);
  return n >= 0xffffff ? undefined : n;
}

/** The forked parseIPv4: four decimal fields of at most 255, leading zeros allowed when `sloppy`. */
function parseIPv4(s: string, sloppy: boolean): number[] | undefined {
  const fields = s.split('.');
  if (fields.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const f of fields) {
    const n = decimal(f);
    if (n === undefined || n > 255) return undefined;
    // netip parseIPv4: "IPv4 field has octet with leading zero".
    if (!sloppy && f.length > 1 && f[0] === '0') return undefined;
    bytes.push(n);
  }
  return bytes;
}

/**
 * parseIPv6 (Go 1.16 net, and netip where `sloppy` is false): hex groups, one `::`, an IPv4
 * address in the last 32 bits. Go 1.16 takes any number of hex digits a group's value fits in
 * (`00001`); netip at most four. No zone: the sloppy parser has none, so no value with one gets
 * as far as the strict parse.
 */
function parseIPv6(s: string, sloppy: boolean): number[] | undefined {
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const fields = part.split(':');
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i];
      if (i === fields.length - 1 && f.includes('.')) {
        const v4 = parseIPv4(f, sloppy);
        if (!v4) return undefined;
        out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
        continue;
      }
      if (!/^[0-9a-fA-F]+$/.test(f) || (!sloppy && f.length > 4)) return undefined;
      const n = Number.parseInt(f.length > 6 ? f.replace(/^0+(?=.)/, '') : f, 16);
      if (n > 0xffff) return undefined;
      out.push(n);
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  // An embedded IPv4 address is only allowed at the end.
  if (halves.length === 2 && halves[0].includes('.')) return undefined;
  const count = head.length + tail.length;
  if (halves.length === 1 ? count !== 8 : count > 7) return undefined;
  const all = [...head, ...Array(8 - count).fill(0), ...tail];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/** An IPv4 address in canonical dotted decimal: what the controllers write, parsed without the general walk. */
const CANONICAL_IPV4 =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/**
 * Each parser's answers by text. Both parsers are pure, and the same addresses come back all the
 * time: every EndpointSlice write is validated address by address (each address parsed four
 * times: three times sloppily, once strictly), and a 100-endpoint slice is written again at every change of one
 * of its pods. The answers are frozen (shared by every caller); an unparsable text is kept as
 * null. Bounded: a memo that reaches MEMO_LIMIT texts is emptied and starts again.
 */
const MEMO_LIMIT = 1 << 16;
const memo = { sloppy: new Map<string, IPBytes | null>(), strict: new Map<string, IPBytes | null>() };

/** net.ParseIP as forked (ParseIPSloppy), or netip.ParseAddr when not `sloppy`: memoised parseAddress. */
function parseIP(s: string, sloppy: boolean): IPBytes | undefined {
  const known = sloppy ? memo.sloppy : memo.strict;
  const hit = known.get(s);
  if (hit !== undefined) return hit ?? undefined;
  const ip = parseAddress(s, sloppy);
  if (known.size >= MEMO_LIMIT) known.clear();
  known.set(s, ip === undefined ? null : Object.freeze(ip));
  return ip;
}

/** net.ParseIP as forked (ParseIPSloppy): the first `.` or `:` says which family. */
function parseAddress(s: string, sloppy: boolean): number[] | undefined {
  const v4 = CANONICAL_IPV4.exec(s);
  if (v4) return [...V4_IN_V6_PREFIX, Number(v4[1]), Number(v4[2]), Number(v4[3]), Number(v4[4])];
  for (const c of s) {
    if (c === '.') {
      const v4 = parseIPv4(s, sloppy);
      return v4 ? [...V4_IN_V6_PREFIX, ...v4] : undefined;
    }
    if (c === ':') return parseIPv6(s, sloppy);
  }
  return undefined;
}

/** netutils.ParseIPSloppy. */
export function parseIPSloppy(s: string): IPBytes | undefined {
  return parseIP(s, true);
}

/** net.IP.To4() != nil: an IPv4 address, or an IPv4-mapped IPv6 one (which Go treats the same). */
export function isIPv4(ip: IPBytes): boolean {
  // An index loop: a memoised address is a frozen array (V8's array builtins walk those on a slow path).
  for (let i = 0; i < V4_IN_V6_PREFIX.length; i++) if (ip[i] !== V4_IN_V6_PREFIX[i]) return false;
  return true;
}

/** net.IP.String(): dotted decimal for IPv4, RFC 5952 for IPv6 (the first longest run of 2+ zero groups as `::`). */
export function ipString(ip: IPBytes): string {
  if (isIPv4(ip)) return ip.slice(12).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (ip[2 * i] << 8) | ip[2 * i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j === i ? i + 1 : j;
  }
  const hex = (list: number[]) => list.map((g) => g.toString(16)).join(':');
  if (bestStart < 0) return hex(groups);
  return `${hex(groups.slice(0, bestStart))}::${hex(groups.slice(bestStart + bestLength))}`;
}

/** netip.Addr.Is4In6 of a strictly parsed address: written as IPv6, in ::ffff:0:0/96. */
function is4In6(s: string, ip: IPBytes): boolean {
  return s.includes(':') && isIPv4(ip);
}

/** A CIDR value as net.ParseCIDR returns it: the address as written, the prefix length, the family's length in bits. */
interface ParsedCIDR {
  readonly ip: IPBytes;
  readonly prefix: number;
  readonly bits: 32 | 128;
}

/** netutils.ParseCIDRSloppy: split at the first `/`; IPv4 when the address parses as one. */
export function parseCIDRSloppy(s: string): ParsedCIDR | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const v4 = parseIPv4(addr, true);
  const ip = v4 ? [...V4_IN_V6_PREFIX, ...v4] : parseIPv6(addr, true);
  const bits = v4 ? 32 : 128;
  const prefix = decimal(s.slice(slash + 1));
  if (!ip || prefix === undefined || prefix > bits) return undefined;
  return { ip, prefix, bits };
}

/** The address with the bits beyond `prefix` cleared (IP.Mask), `bits` counted from the family's start. */
function masked({ ip, prefix, bits }: ParsedCIDR): IPBytes {
  const start = bits === 32 ? 12 : 0;
  return ip.map((b, i) => {
    if (i < start) return b;
    const kept = prefix - (i - start) * 8;
    return kept >= 8 ? b : kept <= 0 ? 0 : b & (0xff << (8 - kept)) & 0xff;
  });
}

/** IPNet.String() of ParseCIDR's network: the masked address and the prefix length. */
function cidrString(cidr: ParsedCIDR): string {
  const net = masked(cidr);
  // An IPv6 network whose address is IPv4-mapped prints its address dotted (net.IP.String).
  return `${ipString(net)}/${cidr.prefix}`;
}

const IP_FORMAT = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const CIDR_FORMAT = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

const invalidAt = (field: string, value: string, detail: string): FieldError => ({
  field,
  type: 'Invalid',
  value,
  detail,
});

/**
 * validation.IsValidIP up to 1.32, and IsValidIPForLegacyField from 1.33 (ip.go parseIP): an
 * address ParseIPSloppy takes; with `strict` (the StrictIPCIDRValidation gate) also one netip
 * takes (`must not have leading 0s`) that is not IPv4-mapped IPv6. A value in `validOld` (the
 * same field of the stored object, on an update) is accepted as it is.
 */
export function isValidIPForLegacyField(
  field: string,
  value: string,
  strict: boolean,
  validOld: readonly string[] = [],
): FieldError[] {
  return legacyFieldErrors(field, value, validOld, () => {
    const ip = parseIPSloppy(value);
    if (!ip) return IP_FORMAT;
    if (!strict) return undefined;
    if (!parseIP(value, false)) return 'must not have leading 0s';
    return is4In6(value, ip) ? 'must not be an IPv4-mapped IPv6 address' : undefined;
  });
}

/** The one Invalid error of a legacy field whose value `problem` refuses, none for a value the stored object already has. */
function legacyFieldErrors(
  field: string,
  value: string,
  validOld: readonly string[],
  problem: () => string | undefined,
): FieldError[] {
  if (validOld.includes(value)) return [];
  const detail = problem();
  return detail === undefined ? [] : [invalidAt(field, value, detail)];
}

/** netip.ParsePrefix: the last `/`, a strict address, a prefix length without a leading zero. */
function parsePrefixStrict(s: string): ParsedCIDR | undefined {
  const slash = s.lastIndexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const ip = parseIP(addr, false);
  const bitsText = s.slice(slash + 1);
  if (!ip || !/^(0|[1-9][0-9]*)$/.test(bitsText)) return undefined;
  const bits = addr.includes(':') ? 128 : 32;
  const prefix = Number(bitsText);
  return prefix > bits ? undefined : { ip, prefix, bits };
}

/**
 * validation.IsValidCIDR from 1.30 to 1.32 (ParseCIDRSloppy), and IsValidCIDRForLegacyField
 * from 1.33 (ip.go parseCIDR): with `strict`, also refused are leading zeros in the address or
 * the prefix length, an IPv4-mapped IPv6 address, and bits set beyond the prefix length.
 */
export function isValidCIDRForLegacyField(
  field: string,
  value: string,
  strict: boolean,
  validOld: readonly string[] = [],
): FieldError[] {
  return legacyFieldErrors(field, value, validOld, () => {
    if (!parseCIDRSloppy(value)) return CIDR_FORMAT;
    if (!strict) return undefined;
    const prefix = parsePrefixStrict(value);
    if (!prefix) return 'must not have leading 0s in IP or prefix length';
    if (is4In6(value.slice(0, value.lastIndexOf('/')), prefix.ip)) return 'must not have an IPv4-mapped IPv6 address';
    if (masked(prefix).some((b, i) => b !== prefix.ip[i])) return 'must not have bits set beyond the prefix length';
    return undefined;
  });
}

/** net.IP.IsUnspecified / IsLoopback / IsLinkLocalUnicast / IsLinkLocalMulticast. */
function specialRange(ip: IPBytes): 'unspecified' | 'loopback' | 'link-local' | 'link-local multicast' | undefined {
  if (isIPv4(ip)) {
    const a = ip[12];
    const b = ip[13];
    const c = ip[14];
    const d = ip[15];
    if (a === 0 && b === 0 && c === 0 && d === 0) return 'unspecified';
    if (a === 127) return 'loopback';
    if (a === 169 && b === 254) return 'link-local';
    if (a === 224 && b === 0 && c === 0) return 'link-local multicast';
    return undefined;
  }
  if (ip.every((x) => x === 0)) return 'unspecified';
  if (ip.slice(0, 15).every((x) => x === 0) && ip[15] === 1) return 'loopback';
  if (ip[0] === 0xfe && (ip[1] & 0xc0) === 0x80) return 'link-local';
  if (ip[0] === 0xff && (ip[1] & 0x0f) === 0x02) return 'link-local multicast';
  return undefined;
}

/**
 * pkg/apis/core/validation ValidateNonSpecialIP (renamed ValidateEndpointIP in 1.32): the
 * addresses of Endpoints and EndpointSlices, and a Service's externalIPs, may not be unspecified,
 * loopback, link-local or link-local multicast. A value the sloppy parser refuses is `must be a
 * valid IP address` (without the example: a second message where the caller checked the format
 * already).
 */
export function validateEndpointIP(field: string, value: string): FieldError[] {
  const ip = parseIPSloppy(value);
  if (!ip) return [invalidAt(field, value, 'must be a valid IP address')];
  switch (specialRange(ip)) {
    case 'unspecified':
      return [invalidAt(field, value, `may not be unspecified (${value})`)];
    case 'loopback':
      return [invalidAt(field, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)')];
    case 'link-local':
      return [invalidAt(field, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)')];
    case 'link-local multicast':
      return [invalidAt(field, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)')];
    default:
      return [];
  }
}

/** For tests and callers that print a network: IPNet.String() of a sloppily parsed CIDR. */
export function canonicalCIDR(value: string): string | undefined {
  const cidr = parseCIDRSloppy(value);
  return cidr ? cidrString(cidr) : undefined;
}
