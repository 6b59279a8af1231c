import { CelFunctionError, parses, registerNamespace, type CelLibrary } from './library';

/**
 * An IP address as net/netip reads it (pkg/cel/ip.go IP, the CEL type `net.IP`): IPv4 or
 * IPv6, as a 32- or 128-bit number.
 */
export class CelIP {
  constructor(
    readonly family: 4 | 6,
    readonly value: bigint,
  ) {}
  get bits(): number {
    return this.family === 4 ? 32 : 128;
  }
  /** netip.Addr.String: dotted decimal, or RFC 5952 (lower case, the longest run of zero groups as `::`). */
  toString(): string {
    if (this.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((this.value >> s) & 0xffn)).join('.');
    const groups = Array.from({ length: 8 }, (_, i) => Number((this.value >> BigInt(112 - 16 * i)) & 0xffffn));
    let best = -1;
    let bestLength = 1;
    for (let i = 0; i < 8; ) {
      let j = i;
      while (j < 8 && groups[j] === 0) j++;
      if (j - i > bestLength) [best, bestLength] = [i, j - i];
      i = j === i ? i + 1 : j;
    }
    const hex = groups.map((g) => g.toString(16));
    if (best < 0) return hex.join(':');
    return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
  }
}

/** A network prefix (pkg/cel/cidr.go CIDR, the CEL type `net.CIDR`): the address as written and its prefix length. */
export class CelCIDR {
  constructor(
    readonly ip: CelIP,
    readonly prefix: number,
  ) {}
  masked(): CelCIDR {
    const hostBits = BigInt(this.ip.bits - this.prefix);
    return new CelCIDR(new CelIP(this.ip.family, (this.ip.value >> hostBits) << hostBits), this.prefix);
  }
  contains(ip: CelIP): boolean {
    const hostBits = BigInt(this.ip.bits - this.prefix);
    return ip.family === this.ip.family && ip.value >> hostBits === this.ip.value >> hostBits;
  }
  toString(): string {
    return `${this.ip}/${this.prefix}`;
  }
}

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) return undefined;
  return parts.reduce((v, p) => (v << 8n) | BigInt(p), 0n);
}

function parseIPv6(text: string): bigint | undefined {
  let head = text;
  let v4: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    v4 = parseIPv4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    // The IPv4 tail stands for the last two groups.
    head = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if ([...left, ...right].some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...left, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let value = all.reduce((v, g) => (v << 16n) | BigInt(parseInt(g, 16)), 0n);
  if (v4 !== undefined) value = (value & ~0xffffffffn) | v4;
  return value;
}

/** library/ip.go parseIPAddr: netip.ParseAddr, without zones or IPv4-mapped IPv6 addresses. */
export function parseIP(raw: string): CelIP {
  if (raw.includes('%')) throw new CelFunctionError(`IP address ${JSON.stringify(raw)} with zone value is not allowed`);
  const v4 = parseIPv4(raw);
  if (v4 !== undefined) return new CelIP(4, v4);
  const v6 = raw.includes(':') ? parseIPv6(raw) : undefined;
  if (v6 === undefined)
    throw new CelFunctionError(
      `IP Address ${JSON.stringify(raw)} parse error during conversion from string: ParseAddr(${JSON.stringify(raw)}): unable to parse IP`,
    );
  if (v6 >> 32n === 0xffffn)
    throw new CelFunctionError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
  return new CelIP(6, v6);
}

/** library/cidr.go parseCIDR: netip.ParsePrefix (the address as written, a prefix within its length). */
export function parseCIDR(raw: string): CelCIDR {
  const fail = () =>
    new CelFunctionError(
      `network address parse error during conversion from string: netip.ParsePrefix(${JSON.stringify(raw)}): invalid prefix`,
    );
  const slash = raw.indexOf('/');
  if (slash < 0 || !/^(0|[1-9]\d*)$/.test(raw.slice(slash + 1))) throw fail();
  let ip: CelIP;
  try {
    ip = parseIP(raw.slice(0, slash));
  } catch (e) {
    if ((e as Error).message.startsWith('IPv4-mapped'))
      throw new CelFunctionError(`IPv4-mapped IPv6 address ${JSON.stringify(raw)} is not allowed`);
    throw fail();
  }
  const prefix = Number(raw.slice(slash + 1));
  if (prefix > ip.bits) throw fail();
  return new CelCIDR(ip, prefix);
}

const inRange = (ip: CelIP, cidr: string) => parseCIDR(cidr).contains(ip);

/**
 * library.IP and library.CIDR (pkg/cel/library/ip.go, cidr.go), in the base environment from
 * 1.30: `ip(s)`, `isIP(s)`, `ip.isCanonical(s)`, and on an IP `family()`, `isUnspecified()`,
 * `isLoopback()`, `isLinkLocalMulticast()`, `isLinkLocalUnicast()`, `isGlobalUnicast()`;
 * `cidr(s)`, `isCIDR(s)`, and on a CIDR `containsIP(ip|s)`, `containsCIDR(cidr|s)`, `ip()`,
 * `masked()`, `prefixLength()`; `string()` of either; equality by value.
 */
export const IP: CelLibrary = {
  name: 'ip',
  introduced: 30,
  register(env) {
    env.registerType('net.IP', CelIP);
    env.registerType('net.CIDR', CelCIDR);
    env.registerFunction('ip(string): net.IP', parseIP);
    env.registerFunction('isIP(string): bool', parses(parseIP));
    registerNamespace(env, 'ip');
    env.registerFunction('ip.isCanonical(string): bool', (_ns: unknown, s: string) => parseIP(s).toString() === s);
    env.registerFunction('string(net.IP): string', (ip: CelIP) => ip.toString());
    env.registerOperator('net.IP == net.IP', (a: CelIP, b: CelIP) => a.family === b.family && a.value === b.value);
    env.registerFunction('net.IP.family(): int', (ip: CelIP) => BigInt(ip.family));
    env.registerFunction('net.IP.isUnspecified(): bool', (ip: CelIP) => ip.value === 0n);
    env.registerFunction('net.IP.isLoopback(): bool', (ip: CelIP) =>
      ip.family === 4 ? inRange(ip, '127.0.0.0/8') : ip.value === 1n,
    );
    env.registerFunction('net.IP.isLinkLocalMulticast(): bool', (ip: CelIP) =>
      ip.family === 4 ? inRange(ip, '224.0.0.0/24') : ((ip.value >> 112n) & 0xff0fn) === 0xff02n,
    );
    env.registerFunction('net.IP.isLinkLocalUnicast(): bool', (ip: CelIP) =>
      inRange(ip, ip.family === 4 ? '169.254.0.0/16' : 'fe80::/10'),
    );
    env.registerFunction('net.IP.isGlobalUnicast(): bool', (ip: CelIP) => {
      if (ip.value === 0n || (ip.family === 4 && ip.value === 0xffffffffn)) return false;
      const loopback = ip.family === 4 ? inRange(ip, '127.0.0.0/8') : ip.value === 1n;
      const multicast = inRange(ip, ip.family === 4 ? '224.0.0.0/4' : 'ff00::/8');
      const linkLocal = inRange(ip, ip.family === 4 ? '169.254.0.0/16' : 'fe80::/10');
      return !loopback && !multicast && !linkLocal;
    });
    env.registerFunction('cidr(string): net.CIDR', parseCIDR);
    env.registerFunction('isCIDR(string): bool', parses(parseCIDR));
    env.registerFunction('string(net.CIDR): string', (c: CelCIDR) => c.toString());
    env.registerOperator('net.CIDR == net.CIDR', (a: CelCIDR, b: CelCIDR) => a.toString() === b.toString());
    env.registerFunction('net.CIDR.containsIP(string): bool', (c: CelCIDR, s: string) => c.contains(parseIP(s)));
    env.registerFunction('net.CIDR.containsIP(net.IP): bool', (c: CelCIDR, ip: CelIP) => c.contains(ip));
    env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: CelCIDR, s: string) => {
      const other = parseCIDR(s);
      return other.prefix >= c.prefix && c.contains(other.ip);
    });
    env.registerFunction(
      'net.CIDR.containsCIDR(net.CIDR): bool',
      (c: CelCIDR, other: CelCIDR) => other.prefix >= c.prefix && c.contains(other.ip),
    );
    env.registerFunction('net.CIDR.ip(): net.IP', (c: CelCIDR) => c.ip);
    env.registerFunction('net.CIDR.masked(): net.CIDR', (c: CelCIDR) => c.masked());
    env.registerFunction('net.CIDR.prefixLength(): int', (c: CelCIDR) => BigInt(c.prefix));
  },
};
