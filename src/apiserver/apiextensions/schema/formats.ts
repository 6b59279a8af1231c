/**
 * The string formats a CRD schema may name, and how each is checked
 * (apiextensions-apiserver pkg/apiserver/validation/formats.go supportedVersionedFormats: every other
 * format is dropped from the schema before validation, so it checks nothing; the checks are
 * kube-openapi pkg/validation/strfmt's default registry). A format is looked up with its dashes
 * removed (strfmt.DefaultNameNormalizer), so `date-time` is `datetime` (R302).
 * k8s-short-name and k8s-long-name (strfmt/kubernetes-extensions.go) were introduced for 1.34, but a
 * format is checked only from the release after it (the validator is built for
 * environment.DefaultCompatibilityVersion, one minor below the server's), so from 1.35.
 */

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID3 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const UUID4 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
const UUID5 = /^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i;
// strfmt.HostnamePattern (letters and symbols of any script are allowed, as there).
const HOSTNAME =
  /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u;
const DATE_TIME_CLOCK = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;
const CREDIT_CARD =
  /^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|(222[1-9]|22[3-9][0-9]|2[3-6][0-9]{2}|27[01][0-9]|2720)[0-9]{12}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11}|6[27][0-9]{14})$/;
const SSN = /^\d{3}[- ]?\d{2}[- ]?\d{4}$/;
const HEX_COLOR = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const RGB_COLOR =
  /^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$/;
const BASE64 = /^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$/;
const BSON_OBJECT_ID = /^[0-9a-fA-F]{24}$/;
const DURATION_UNIT = /((\d+)\s*([A-Za-zµ]+))/g;
const DURATION_UNITS = [
  ['ns', 'nano'],
  ['us', 'µs', 'micro'],
  ['ms', 'milli'],
  ['s', 'sec'],
  ['m', 'min'],
  ['h', 'hr', 'hour'],
  ['d', 'day'],
  ['w', 'wk', 'week'],
];
const GO_DURATION = /^[-+]?(0|(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$/;

/** net.ParseIP of a dotted quad (netutils.ParseIPSloppy also takes leading zeros). */
function isIPv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => /^[0-9]{1,3}$/.test(p) && Number(p) <= 255);
}

function isIPv6(s: string): boolean {
  if (!s.includes(':') || /[^0-9a-fA-F:.]/.test(s)) return false;
  let head = s;
  let groupsForV4 = 0;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    if (!isIPv4(s.slice(lastColon + 1))) return false;
    head = s.slice(0, lastColon + 1) + '0';
    groupsForV4 = 1; // the dotted quad takes two groups; "0" stands for one, so one more is owed
  }
  const halves = head.split('::');
  if (halves.length > 2) return false;
  const groups = (h: string): string[] | undefined => (h === '' ? [] : h.split(':'));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  if (!left || !right) return false;
  if (![...left, ...right].every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  const count = left.length + right.length + groupsForV4;
  return halves.length === 2 ? count < 8 : count === 8;
}

function isCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const ip = s.slice(0, slash);
  const bits = s.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  return isIPv6(ip) && Number(bits) <= 128;
}

/** net.ParseMAC: 6, 8 or 20 octets separated by ':' or '-', or dot-separated groups of four hex digits. */
function isMAC(s: string): boolean {
  return (
    /^([0-9a-fA-F]{2}[:-]){5}([0-9a-fA-F]{2})$/.test(s) ||
    /^([0-9a-fA-F]{2}[:-]){7}([0-9a-fA-F]{2})$/.test(s) ||
    /^([0-9a-fA-F]{2}[:-]){19}([0-9a-fA-F]{2})$/.test(s) ||
    /^([0-9a-fA-F]{4}\.){2}([0-9a-fA-F]{4})$/.test(s) ||
    /^([0-9a-fA-F]{4}\.){3}([0-9a-fA-F]{4})$/.test(s) ||
    /^([0-9a-fA-F]{4}\.){9}([0-9a-fA-F]{4})$/.test(s)
  );
}

/** time.Parse("2006-01-02"): real calendar dates only. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= days[mo - 1];
}

/** strfmt.IsDateTime: a date, a "t", and a clock time with an offset or "z", case-insensitive. */
function isDateTime(s: string): boolean {
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0])) return false;
  const m = DATE_TIME_CLOCK.exec(parts[1]);
  return m !== null && m[1] <= '23' && m[2] <= '59' && m[3] <= '59';
}

/** strfmt.ParseDuration: Go's time.ParseDuration, or numbers with unit words ("3 days", "1h 30 min"). */
function isDuration(s: string): boolean {
  if (GO_DURATION.test(s)) return true;
  for (const m of s.matchAll(DURATION_UNIT)) {
    const unit = m[3].trim().toLowerCase();
    for (const variants of DURATION_UNITS) {
      if (variants.some((v, i) => (i === variants.length - 1 && unit.startsWith(v)) || v.toLowerCase() === unit))
        return true;
    }
  }
  return false;
}

/** govalidator.IsRequestURI (net/url.ParseRequestURI): an absolute URL or an absolute path, no fragment check. */
function isRequestURI(s: string): boolean {
  if (s.startsWith('/')) return !/\s/.test(s);
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s)) return false;
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
}

/** net/mail.ParseAddress, for the plain `local@domain` and `Name <local@domain>` forms. */
function isEmail(s: string): boolean {
  const angle = /^[^<>]*<([^<>]+)>$/.exec(s.trim());
  const addr = angle ? angle[1] : s;
  return (
    /^[A-Za-z0-9!#$%&'*+\/=?^_`{|}~.-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(addr) &&
    !addr.startsWith('.') &&
    !addr.includes('..@')
  );
}

function isISBN10(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^[0-9]{9}[0-9X]$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 10; i++) sum += (i + 1) * (d[i] === 'X' ? 10 : Number(d[i]));
  return sum % 11 === 0;
}

function isISBN13(s: string): boolean {
  const d = s.replace(/[\s-]/g, '');
  if (!/^[0-9]{13}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(d[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10 === Number(d[12]);
}

/** govalidator.IsCreditCard: non-digits removed, a known issuer's pattern and the Luhn checksum. */
function isCreditCard(s: string): boolean {
  const d = s.replace(/[^0-9]/g, '');
  if (!CREDIT_CARD.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = Number(d[d.length - 1 - i]);
    if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  }
  return sum % 10 === 0;
}

/** The formats a regular expression decides. */
const PATTERNS: Record<string, RegExp> = {
  bsonobjectid: BSON_OBJECT_ID,
  hostname: HOSTNAME,
  uuid: UUID,
  uuid3: UUID3,
  uuid4: UUID4,
  uuid5: UUID5,
  ssn: SSN,
  hexcolor: HEX_COLOR,
  rgbcolor: RGB_COLOR,
  byte: BASE64,
};

const CHECKS: Record<string, (s: string) => boolean> = {
  ...Object.fromEntries(Object.entries(PATTERNS).map(([name, re]) => [name, (s: string) => re.test(s)])),
  uri: isRequestURI,
  email: isEmail,
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCIDR,
  mac: isMAC,
  isbn: (s) => isISBN10(s) || isISBN13(s),
  isbn10: isISBN10,
  isbn13: isISBN13,
  creditcard: isCreditCard,
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

const K8S_SHORT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const K8S_LONG_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const K8S_CHECKS: Record<string, (s: string) => boolean> = {
  k8sshortname: (s) => s.length <= 63 && K8S_SHORT_NAME.test(s),
  k8slongname: (s) => s.length <= 253 && K8S_LONG_NAME.test(s),
};

/**
 * The check of a format the schema may use, or undefined when it is not supported (and so ignored);
 * k8sNames: the release checks k8s-short-name and k8s-long-name.
 */
export function formatCheck(format: string | undefined, k8sNames = false): ((s: string) => boolean) | undefined {
  if (!format) return undefined;
  const name = format.replace(/-/g, '');
  if (Object.prototype.hasOwnProperty.call(CHECKS, name)) return CHECKS[name];
  return k8sNames && Object.prototype.hasOwnProperty.call(K8S_CHECKS, name) ? K8S_CHECKS[name] : undefined;
}
