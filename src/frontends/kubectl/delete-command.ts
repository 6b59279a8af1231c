import type { DeleteOptions } from 'kubernetes-types/meta/v1';
import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import { append } from '../../foundation/widest';

/**
 * Turns one `kubectl delete …` command line into what kubectl of the release modelled (v1.36 by
 * default; the differences by release are marked) would do, without a
 * cluster: the DeleteOptions body of its DELETE request, whether it then waits, and what it
 * prints. Upstream: staging/src/k8s.io/kubectl/pkg/cmd/delete/{delete.go,delete_flags.go},
 * kubectl/pkg/cmd/util/helpers.go, cli-runtime/pkg/resource/builder.go, client-go/rest/request.go,
 * and the flag parser kubectl uses (spf13/pflag v1.0.5 under cobra).
 *
 * The phases run in kubectl's order, so the first error is the one kubectl reports:
 * flag parsing (pflag) → DeleteFlags.ToOptions (--cascade) → DeleteOptions.Complete (--now,
 * --grace-period, --dry-run, the resource arguments) → DeleteOptions.Validate (--force) →
 * the request itself (path-segment checks on namespace and name).
 */

export type KubectlResource = 'pods' | 'replicasets' | 'namespaces';

/** The cluster-scoped ones: no namespace in their path (client-go sets none). */
export const CLUSTER_SCOPED: ReadonlySet<KubectlResource> = new Set(['namespaces']);

export interface KubectlDeleteCommand {
  /** 'pod', 'pods', 'po', 'pod/NAME' → 'pods'; 'replicaset', 'replicasets', 'rs', 'rs/NAME' → 'replicasets'. */
  resource: KubectlResource;
  /** The names given (NAME… or TYPE/NAME…), in order; empty when a selector chooses the objects. */
  names: string[];
  /**
   * -l / --selector, or '' for --all: kubectl LISTs the objects with this label selector
   * (cli-runtime builder.go selectorVisitor) and deletes each one it finds.
   */
  selector?: string;
  /** -n / --namespace; 'default' when absent or empty (kubeconfig context assumed to set none). */
  namespace: string;
  /** The DeleteOptions JSON body, keys in kubectl's order: gracePeriodSeconds, propagationPolicy, dryRun. */
  body: DeleteOptions;
  /** --dry-run=client (or bare --dry-run / --dry-run=true): kubectl prints the message and sends no request at all. */
  clientDryRun: boolean;
  /** Whether kubectl waits (GET, LIST, WATCH) for the object to be gone: --wait, and never with a dry run. */
  wait: boolean;
  /**
   * --timeout in milliseconds; undefined when absent or 0 (kubectl then waits up to a week).
   * Negative: kubectl gives up right after its first GET if the object still exists.
   */
  timeoutMs?: number;
  /** Lines kubectl prints to stderr before it acts (klog's "W… file:line]" header left out). */
  warnings: string[];
  /** -o name: print TYPE/NAME instead of the sentence (delete.go PrintObj). */
  outputName: boolean;
  /** What PrintObj says was done: "deleted", "force deleted", plus " (dry run)" or " (server dry run)". */
  operation: string;
  /** --ignore-not-found: a NotFound answer is success and kubectl prints nothing. */
  ignoreNotFound: boolean;
  /** -i / --interactive: list what will be deleted and ask first (V13). */
  interactive: boolean;
}

/** kubectl itself refuses the command and exits 1; `message` is exactly what it prints on stderr. */
export class KubectlError extends Error {
  override readonly name = 'KubectlError';
  /** Warnings kubectl printed before the error. */
  constructor(
    message: string,
    readonly warnings: readonly string[] = [],
  ) {
    super(message);
  }
}

/** A command real kubectl accepts (or at least parses) but this simulator does not model. */
export class UnsupportedKubectlError extends Error {
  override readonly name = 'UnsupportedKubectlError';
}

const SUPPORTED =
  'supported: `kubectl delete pod|replicaset|namespace NAME… (or TYPE/NAME…, -l SELECTOR, --all) with -n/--namespace, --grace-period, --now, --force, ' +
  '--cascade, --dry-run, --wait, --timeout, --ignore-not-found, -o name, -i/--interactive`, and `kubectl drain|cordon|uncordon NODE` ' +
  '(drain with --force, --ignore-daemonsets, --delete-emptydir-data, --grace-period, --timeout, --pod-selector, --disable-eviction, --dry-run), ' +
  '`kubectl scale deployment|replicaset|statefulset NAME --replicas=N` and `kubectl rollout restart|status|undo deployment NAME` (src/frontends/kubectl/workload-commands.ts)';

export function unsupported(what: string, hint = ''): UnsupportedKubectlError {
  return new UnsupportedKubectlError(`${what} is not modelled by this simulator; ${SUPPORTED}${hint && `. ${hint}`}`);
}

// ---------------------------------------------------------------------------------------------
// Flags. Kinds and defaults from delete_flags.go NewDeleteCommandFlags/AddFlags, helpers.go
// AddDryRunFlag, and kubectl's global (persistent) flags. `noOpt` is pflag's NoOptDefVal: a flag
// that has one takes its value only as --flag=value; a bare --flag means noOpt.

type FlagKind = 'bool' | 'string' | 'int' | 'duration';
export interface FlagSpec {
  name: string;
  short?: string;
  kind: FlagKind;
  noOpt?: string;
  modelled?: boolean;
  /** Defined on the root command, so it may also appear before the verb. */
  global?: boolean;
}
export type FlagValue = string | boolean | bigint;

/** kubectl's global (persistent) flags other than -n (`kubectl options`), none of them modelled. */
export const GLOBAL_FLAGS: FlagSpec[] = [
  ...[
    'as',
    'as-group',
    'as-uid',
    'cache-dir',
    'certificate-authority',
    'client-certificate',
    'client-key',
    'cluster',
    'context',
    'kubeconfig',
    'password',
    'profile',
    'profile-output',
    'request-timeout',
    'tls-server-name',
    'token',
    'user',
    'username',
    'vmodule',
    'log-flush-frequency',
  ].map((name): FlagSpec => ({ name, kind: 'string', global: true })),
  ...['disable-compression', 'insecure-skip-tls-verify', 'match-server-version', 'warnings-as-errors'].map(
    (name): FlagSpec => ({ name, kind: 'bool', global: true }),
  ),
  { name: 'server', short: 's', kind: 'string', global: true },
  { name: 'v', short: 'v', kind: 'string', global: true },
];

const FLAGS: FlagSpec[] = [
  // modelled
  { name: 'namespace', short: 'n', kind: 'string', modelled: true, global: true },
  { name: 'grace-period', kind: 'int', modelled: true },
  { name: 'now', kind: 'bool', modelled: true },
  { name: 'force', kind: 'bool', modelled: true },
  { name: 'cascade', kind: 'string', noOpt: 'background', modelled: true },
  { name: 'dry-run', kind: 'string', noOpt: 'unchanged', modelled: true },
  { name: 'wait', kind: 'bool', modelled: true },
  { name: 'timeout', kind: 'duration', modelled: true },
  { name: 'ignore-not-found', kind: 'bool', modelled: true },
  { name: 'all', kind: 'bool', modelled: true },
  { name: 'selector', short: 'l', kind: 'string', modelled: true },
  { name: 'output', short: 'o', kind: 'string', modelled: true },
  // Registered only from kubectl v1.29, or on v1.28 with KUBECTL_INTERACTIVE_DELETE=true (interactiveFlagRegistered).
  { name: 'interactive', short: 'i', kind: 'bool', modelled: true },
  // real `kubectl delete` flags this simulator does not model
  { name: 'all-namespaces', short: 'A', kind: 'bool' },
  { name: 'enable-helm', kind: 'bool' },
  { name: 'field-selector', kind: 'string' },
  { name: 'filename', short: 'f', kind: 'string' },
  { name: 'help', short: 'h', kind: 'bool' },
  { name: 'kustomize', short: 'k', kind: 'string' },
  { name: 'raw', kind: 'string' },
  { name: 'recursive', short: 'R', kind: 'bool' },
  ...GLOBAL_FLAGS,
];

/**
 * V13 — delete_flags.go DeleteFlags.AddFlags: `-i/--interactive` came in kubectl v1.28 behind the
 * environment variable KUBECTL_INTERACTIVE_DELETE=true (cmdutil.InteractiveDelete, KEP-3895,
 * #114530) and is always there from v1.29 (#120416). Without it the flag is unknown to pflag.
 */
function interactiveFlagRegistered(release: Release, env: ReadonlyMap<string, string>): boolean {
  return release.atLeast(29) || (release.atLeast(28) && env.get('KUBECTL_INTERACTIVE_DELETE') === 'true');
}

/** Go's %q for the ASCII strings that matter here. */
const q = (s: string): string => JSON.stringify(s);

/** strconv.ParseBool. */
function parseGoBool(s: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  throw new Error(`strconv.ParseBool: parsing ${q(s)}: invalid syntax`);
}

/** A record lookup that ignores Object.prototype ("constructor" is not a unit or a resource). */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function tryGoBool(s: string): boolean | undefined {
  try {
    return parseGoBool(s);
  } catch {
    return undefined;
  }
}

/** strconv.ParseInt(s, 0, 64), as pflag's int flag calls it: base prefixes, leading-0 octal, underscores. */
function parseGoInt(s: string): bigint {
  const m =
    /^([+-]?)(0[xX](?:_?[0-9a-fA-F])+|0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0(?:_?[0-7])*|[1-9](?:_?[0-9])*)$/.exec(s);
  if (!m) throw new Error(`strconv.ParseInt: parsing ${q(s)}: invalid syntax`);
  const digits = (m[2] as string).replace(/_/g, '');
  const magnitude = /^0[0-7]+$/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
  const limit = m[1] === '-' ? 1n << 63n : (1n << 63n) - 1n;
  if (magnitude > limit) throw new Error(`strconv.ParseInt: parsing ${q(s)}: value out of range`);
  return m[1] === '-' ? -magnitude : magnitude;
}

/** The quoting Go's time package uses in its errors. */
function timeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (code < 0x20 || code >= 0x80) {
      for (const byte of Buffer.from(ch, 'utf8')) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else {
      out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
    }
  }
  return `${out}"`;
}

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** time.ParseDuration, in nanoseconds: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, or a bare "0". */
export function parseGoDuration(orig: string): bigint {
  const invalid = () => new Error(`time: invalid duration ${timeQuote(orig)}`);
  let s = orig;
  const neg = s.startsWith('-');
  if (neg || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) throw invalid();
    const [number, whole = '', fraction = ''] = /^([0-9]*)(?:\.([0-9]*))?/.exec(s) as RegExpExecArray;
    if (whole === '' && fraction === '') throw invalid();
    s = s.slice(number.length);
    const unitLength = s.search(/[0-9.]/) < 0 ? s.length : s.search(/[0-9.]/);
    if (unitLength === 0) throw new Error(`time: missing unit in duration ${timeQuote(orig)}`);
    const unitName = s.slice(0, unitLength);
    s = s.slice(unitLength);
    const unit = own(UNIT_NS, unitName);
    if (unit === undefined) throw new Error(`time: unknown unit ${timeQuote(unitName)} in duration ${timeQuote(orig)}`);
    total += BigInt(whole || '0') * unit;
    if (fraction !== '') total += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    if (total > (neg ? 1n << 63n : (1n << 63n) - 1n)) throw invalid();
  }
  return neg ? -total : total;
}

// ---------------------------------------------------------------------------------------------
// Tokenising: a POSIX shell's word splitting and quoting, for simple lines only.

/** A command line's words, as a POSIX shell splits and unquotes a simple line. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new UnsupportedKubectlError('unterminated single quote in the command line');
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word ??= '';
      for (i++; line[i] !== '"'; i++) {
        if (i >= line.length) throw new UnsupportedKubectlError('unterminated double quote in the command line');
        if (line[i] === '$' || line[i] === '`') throw unsupported(`shell expansion (${line[i]}) in the command line`);
        if (line[i] === '\\' && '"\\$`'.includes(line[i + 1] ?? '')) i++;
        word += line[i];
      }
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new UnsupportedKubectlError('trailing backslash in the command line');
      word = (word ?? '') + line[++i];
    } else if ('|&;<>()$`'.includes(c) || (c === '#' && word === undefined)) {
      throw unsupported(`shell syntax (${c}) in the command line`);
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

// ---------------------------------------------------------------------------------------------
// Flag parsing: pflag's FlagSet.Parse (parseLongArg / parseSingleShortArg) as cobra runs it for
// `kubectl delete`, with kubectl's WarnWordSepNormalizeFunc (component-base/cli/flag) turning
// "_" in long names into "-". pflag stops at the first error; we keep going only to find the verb.

export interface ParsedLine {
  values: Map<string, FlagValue>;
  positionals: string[];
  warnings: string[];
  /** pflag's error text, before cobra's FlagErrorFunc and CheckErr decorate it. */
  error?: string;
  /** Real flags this simulator does not model, as the user wrote them. */
  unmodelled: string[];
}

function setFlag(spec: FlagSpec, raw: string, out: ParsedLine): void {
  let value: FlagValue = raw;
  try {
    if (spec.kind === 'bool') value = parseGoBool(raw);
    else if (spec.kind === 'int') value = parseGoInt(raw);
    else if (spec.kind === 'duration') value = parseGoDuration(raw);
  } catch (e) {
    // pflag FlagSet.Set: names the flag as "-s, --long" when it has a shorthand.
    const flagName = spec.short ? `-${spec.short}, --${spec.name}` : `--${spec.name}`;
    throw new Error(`invalid argument ${q(raw)} for ${q(flagName)} flag: ${(e as Error).message}`);
  }
  out.values.set(spec.name, value);
}

export function parseFlags(
  args: string[],
  registered: (spec: FlagSpec) => boolean,
  table: readonly FlagSpec[] = FLAGS,
): ParsedLine {
  const flags = table.filter(registered);
  const byName = new Map(flags.map((f) => [f.name, f]));
  const byShort = new Map(flags.filter((f) => f.short).map((f) => [f.short as string, f]));
  const out: ParsedLine = { values: new Map(), positionals: [], warnings: [], unmodelled: [] };
  const note = (spec: FlagSpec, written: string) => {
    // Flags before the verb are parsed against the root command, which only has the global ones.
    if (!spec.modelled) out.unmodelled.push(written);
    else if (out.positionals.length === 0 && !spec.global) out.unmodelled.push(`${written} before the verb`);
  };
  let i = 0;
  while (i < args.length) {
    const s = args[i++] as string;
    if (s.length < 2 || !s.startsWith('-')) {
      out.positionals.push(s);
      continue;
    }
    try {
      if (s === '--') {
        append(out.positionals, args.slice(i));
        break;
      }
      if (s.startsWith('--')) {
        const body = s.slice(2);
        if (body.startsWith('-') || body.startsWith('=')) throw new Error(`bad flag syntax: ${s}`);
        const eq = body.indexOf('=');
        const written = eq < 0 ? body : body.slice(0, eq);
        // The real v1.33 and v1.36 binaries convert silently: no underscore warning reaches stderr
        // (kubectl.differential.test.ts runs it).
        const name = written.replace(/_/g, '-');
        const spec = byName.get(name);
        if (!spec) throw new Error(`unknown flag: --${written}`);
        note(spec, `--${name}`);
        let value: string;
        if (eq >= 0) value = body.slice(eq + 1);
        else if (spec.kind === 'bool') value = 'true';
        else if (spec.noOpt !== undefined) value = spec.noOpt;
        else if (i < args.length) value = args[i++] as string;
        else throw new Error(`flag needs an argument: ${s}`);
        setFlag(spec, value, out);
      } else {
        let shorts = s.slice(1);
        while (shorts !== '') {
          const c = shorts[0] as string;
          const spec = byShort.get(c);
          if (!spec) throw new Error(`unknown shorthand flag: '${c}' in -${shorts}`);
          note(spec, `-${c} (--${spec.name})`);
          let value: string;
          if (shorts.length > 2 && shorts[1] === '=') [value, shorts] = [shorts.slice(2), ''];
          else if (spec.kind === 'bool') [value, shorts] = ['true', shorts.slice(1)];
          else if (shorts.length > 1) [value, shorts] = [shorts.slice(1), ''];
          else if (i < args.length) [value, shorts] = [args[i++] as string, ''];
          else throw new Error(`flag needs an argument: '${c}' in -${shorts}`);
          setFlag(spec, value, out);
        }
      }
    } catch (e) {
      out.error ??= (e as Error).message;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Resource arguments: cli-runtime/pkg/resource/builder.go ResourceTypeOrNameArgs and
// visitorResult, with the RESTMapper's answers for the two resources this simulator has.

const RESOURCE_ALIASES: Record<string, KubectlResource> = {
  pods: 'pods',
  pod: 'pods',
  po: 'pods',
  replicasets: 'replicasets',
  replicaset: 'replicasets',
  rs: 'replicasets',
  namespaces: 'namespaces',
  namespace: 'namespaces',
  ns: 'namespaces',
  'replicasets.apps': 'replicasets',
  'replicaset.apps': 'replicasets',
  'replicasets.v1.apps': 'replicasets',
  'replicaset.v1.apps': 'replicasets',
};
const PROPAGATION: Record<string, 'Background' | 'Foreground' | 'Orphan'> = {
  background: 'Background',
  foreground: 'Foreground',
  orphan: 'Orphan',
};

/** What PrintObj prints: the lower-case kind, with ".group" for non-core groups. */
const KIND_STRING: Record<KubectlResource, string> = {
  pods: 'pod',
  replicasets: 'replicaset.apps',
  namespaces: 'namespace',
};

function resolveType(arg: string): KubectlResource {
  if (arg.includes(',')) throw unsupported(`more than one resource type (${arg})`);
  const resource = own(RESOURCE_ALIASES, arg.toLowerCase());
  if (!resource) throw unsupported(`resource type "${arg}"`);
  return resource;
}

const MISSING_RESOURCE =
  'error: You must provide one or more resources by argument or filename.\n' +
  'Example resource specifications include:\n' +
  "   '-f rsrc.yaml'\n" +
  "   '--filename=rsrc.json'\n" +
  "   '<resource> <name>'\n" +
  "   '<resource>'";

/** What the builder visits: named objects of one resource, or the objects a LIST with a label selector finds. */
interface Targets {
  resource: KubectlResource;
  names: string[];
  selector?: string;
}

/**
 * builder.go ResourceTypeOrNameArgs and visitorResult: TYPE NAME…, TYPE/NAME…, or TYPE with a
 * selector (-l, or --all which selects everything), checked in the builder's order.
 */
function resolveTargets(args: string[], selector: string | undefined, fail: (message: string) => never): Targets {
  const slashed = args.filter((a) => a.includes('/')).length;
  if (slashed > 0) {
    // hasCombinedTypeArgs: TYPE/NAME form must be used for every argument or none.
    if (slashed !== args.length) {
      fail(
        "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
      );
    }
    // splitResourceTypeName, for each argument in turn.
    for (const arg of args) {
      const parts = arg.split('/');
      if (parts.length !== 2) fail('error: arguments in resource/name form may not have more than one slash');
      const [type, name] = parts as [string, string];
      if (type === '' || name === '' || type.split(',').filter(Boolean).length !== 1) {
        fail('error: arguments in resource/name form must have a single resource and name');
      }
    }
    // visitBySelector refuses resource/name tuples.
    if (selector !== undefined)
      fail('error: selectors and the all flag cannot be used when passing resource/name arguments');
    const tuples = args.map((arg) => arg.split('/') as [string, string]);
    const resource = resolveType(tuples[0]![0]);
    if (tuples.some(([type]) => resolveType(type) !== resource))
      throw unsupported(`objects of several resource types (${args.join(' ')})`);
    return { resource, names: tuples.map(([, name]) => name) };
  }
  if (args.length === 0)
    fail(
      selector === undefined ? MISSING_RESOURCE : 'error: at least one resource must be specified to use a selector',
    );
  const resource = resolveType(args[0] as string);
  const names = args.slice(1);
  if (selector !== undefined) {
    if (names.length > 0) fail('error: name cannot be provided when a selector is specified');
    return { resource, names, selector };
  }
  // visitorResult: types but no names (and no selector or --all).
  if (names.length === 0) fail('error: resource(s) were provided, but no name was specified');
  return { resource, names };
}

/** client-go rest.IsValidPathSegmentName, checked by Request.Namespace and Request.Name. */
function pathSegmentProblems(segment: string): string[] {
  if (segment === '.' || segment === '..') return [`may not be '${segment}'`];
  return ['/', '%'].filter((bad) => segment.includes(bad)).map((bad) => `may not contain '${bad}'`);
}

/** Environment variables kubectl reads that a command line may set in front of it (NAME=value kubectl …). */
const ENVIRONMENT = ['KUBECTL_INTERACTIVE_DELETE'];

/** A shell's leading NAME=value assignments, which set the command's environment, and the words after them. */
export function splitEnvironment(words: string[]): { env: Map<string, string>; words: string[] } {
  const env = new Map<string, string>();
  let i = 0;
  for (; i < words.length; i++) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(words[i] as string);
    if (!m) break;
    if (!ENVIRONMENT.includes(m[1] as string))
      throw unsupported(
        `the environment variable ${m[1]}`,
        `Only ${ENVIRONMENT.join(', ')} may be set in front of kubectl`,
      );
    env.set(m[1] as string, m[2] as string);
  }
  return { env, words: words.slice(i) };
}

// ---------------------------------------------------------------------------------------------

/**
 * helpers.go GetDryRunStrategy: none, client or server; a boolean or the bare flag (NoOptDefVal
 * "unchanged") is a deprecated spelling, reported through klog.Warning.
 */
export function dryRunStrategy(
  dryRunFlag: string,
  warnings: string[],
  fail: (message: string) => never,
): 'none' | 'client' | 'server' {
  const dryRunBool = tryGoBool(dryRunFlag);
  if (dryRunBool !== undefined) {
    const dryRun = dryRunBool ? 'client' : 'none';
    warnings.push(
      `--dry-run=${dryRunFlag} is deprecated (boolean value) and can be replaced with --dry-run=${dryRun}.`,
    );
    return dryRun;
  }
  if (dryRunFlag === 'unchanged') {
    warnings.push('--dry-run is deprecated and can be replaced with --dry-run=client.');
    return 'client';
  }
  if (dryRunFlag !== 'none' && dryRunFlag !== 'client' && dryRunFlag !== 'server')
    fail(`error: Invalid dry-run value (${dryRunFlag}). Must be "none", "server", or "client".`);
  return dryRunFlag as 'none' | 'client' | 'server';
}

export function parseKubectlDelete(commandLine: string, release: Release = DEFAULT_RELEASE): KubectlDeleteCommand {
  const { env, words } = splitEnvironment(splitCommandLine(commandLine));
  if (words[0] !== 'kubectl')
    throw unsupported(`a command line that does not start with "kubectl" (${q(commandLine)})`);
  const parsed = parseFlags(
    words.slice(1),
    (spec) => spec.name !== 'interactive' || interactiveFlagRegistered(release, env),
  );
  const [verb, ...args] = parsed.positionals;
  if (verb !== 'delete') throw unsupported(verb === undefined ? 'kubectl without a command' : `kubectl ${verb}`);

  const warnings = parsed.warnings;
  const fail: (message: string) => never = (message) => {
    throw new KubectlError(message, [...warnings]);
  };
  // cobra hands pflag's error to kubectl's FlagErrorFunc (kubectl/pkg/util/templates/templater.go),
  // which appends the help hint; cmdutil.CheckErr then prefixes "error: ".
  if (parsed.error !== undefined) fail(`error: ${parsed.error}\nSee 'kubectl delete --help' for usage.`);
  if (parsed.unmodelled.length > 0) throw unsupported(`flag ${parsed.unmodelled.join(', ')}`);

  const flag = <T extends FlagValue>(name: string, fallback: T): T =>
    (parsed.values.get(name) as T | undefined) ?? fallback;
  const force = flag<boolean>('force', false);
  const now = flag<boolean>('now', false);
  const gracePeriodFlag = flag<bigint>('grace-period', -1n);

  // delete_flags.go parseCascadingFlag (from DeleteFlags.ToOptions): a boolean is the deprecated
  // spelling (true = background, false = orphan) and earns a warning on stderr.
  const cascadeFlag = flag<string>('cascade', 'background');
  const cascadeBool = tryGoBool(cascadeFlag);
  const cascade = cascadeBool === undefined ? cascadeFlag : cascadeBool ? 'background' : 'orphan';
  if (cascadeBool !== undefined) {
    warnings.push(
      `warning: --cascade=${cascadeFlag} is deprecated (boolean value) and can be replaced with --cascade=${cascade}.`,
    );
  }
  const propagationPolicy = own(PROPAGATION, cascade);
  if (propagationPolicy === undefined) {
    fail(`error: invalid cascade value (${cascadeFlag}). Must be "background", "foreground", or "orphan"`);
  }

  // delete.go DeleteOptions.Complete: --now means a grace period of 1 and may not be combined
  // with an explicit --grace-period other than -1; --grace-period=0 without --force becomes 1;
  // --force without a grace period means 0.
  let gracePeriod = gracePeriodFlag;
  if (now) {
    if (gracePeriod !== -1n) fail('error: --now and --grace-period cannot be specified together');
    gracePeriod = 1n;
  }
  if (gracePeriod === 0n && !force) gracePeriod = 1n;
  if (force && gracePeriod < 0n) gracePeriod = 0n;

  const dryRun = dryRunStrategy(flag<string>('dry-run', 'none'), warnings, fail);

  // Complete then builds the resource list from the arguments (builder.go): LabelSelectorParam
  // ignores an empty -l; SelectAllParam refuses --all beside a selector.
  const labelSelector = flag<string>('selector', '').trim();
  const all = flag<boolean>('all', false);
  if (all && labelSelector !== '') fail("error: setting 'all' parameter but found a non empty selector. ");
  const selector = all ? '' : labelSelector || undefined;
  const { resource, names } = resolveTargets(args, selector, fail);

  // delete.go DeleteOptions.Validate: only -o name; --force with a positive grace period is
  // refused; --force with 0 prints a warning through the WarningPrinter ("Warning: " prefix,
  // cli-runtime/pkg/printers).
  const output = flag<string>('output', '');
  if (output !== '' && output !== 'name')
    fail(`error: unexpected -o output mode: ${output}. We only support '-o name'`);
  if (force && gracePeriod > 0n) fail('error: --force and --grace-period greater than 0 cannot be specified together');
  if (force && gracePeriod === 0n) {
    warnings.push(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.',
    );
  }
  if (gracePeriod > BigInt(Number.MAX_SAFE_INTEGER)) throw unsupported(`--grace-period=${gracePeriod}`);

  // delete.go DeleteResult: a grace period only when non-negative, the cascade always;
  // resource.Helper.DeleteWithOptions adds dryRun ["All"] for a server dry run.
  const body: DeleteOptions = {};
  if (gracePeriod >= 0n) body.gracePeriodSeconds = Number(gracePeriod);
  body.propagationPolicy = propagationPolicy;
  if (dryRun === 'server') body.dryRun = ['All'];

  // Complete's namespace comes from the kubeconfig loader, which ignores an empty override.
  const namespace = flag<string>('namespace', '') || 'default';
  // delete.go PrintObj: "force deleted" when the final grace period is 0, plus the dry-run suffix.
  let operation = gracePeriod === 0n ? 'force deleted' : 'deleted';
  // Since kubectl v1.34 (#126619 "show namespace on delete") a namespaced object's line names its namespace.
  if (release.atLeast(34) && !CLUSTER_SCOPED.has(resource)) operation += ` from ${namespace} namespace`;
  if (dryRun === 'client') operation += ' (dry run)';
  if (dryRun === 'server') operation += ' (server dry run)';

  const timeoutNs = flag<bigint>('timeout', 0n);
  return {
    resource,
    names,
    ...(selector !== undefined && { selector }),
    namespace,
    body,
    clientDryRun: dryRun === 'client',
    // DeleteResult: no wait after any dry run.
    wait: flag<boolean>('wait', true) && dryRun === 'none',
    ...(timeoutNs !== 0n && { timeoutMs: Number(timeoutNs) / 1e6 }),
    warnings,
    outputName: output === 'name',
    operation,
    // Complete: with --all or -l, NotFound is ignored unless --ignore-not-found was given explicitly.
    ignoreNotFound: flag<boolean>('ignore-not-found', selector !== undefined),
    interactive: flag<boolean>('interactive', false),
  };
}

/**
 * V13 — delete.go DeleteOptions.confirmation: what kubectl prints before it reads the answer (no
 * newline after the question). The choices read `(y/n)` up to v1.33 and `(y/N)` from v1.34
 * (#132251), where an empty answer means no.
 */
export function confirmationPrompt(cmd: KubectlDeleteCommand, names: readonly string[], release: Release): string {
  const listed = names.map((name) => `${KIND_STRING[cmd.resource]}/${name}\n`).join('');
  return `You are about to delete the following ${names.length} resource(s):\n${listed}Do you want to continue? ${release.atLeast(34) ? '(y/N)' : '(y/n)'}: `;
}

/**
 * Whether the answer on kubectl's standard input confirms: `y` or `Y` only. Up to v1.33
 * confirmation reads one word with fmt.Fscan, which skips blank lines, so only the end of the input
 * without a word refuses; from v1.34 fmt.Fscanln reads the first line, and an empty line or more
 * than one word on it refuses too. `undefined` is no input at all.
 */
export function confirms(answer: string | undefined, release: Release): boolean {
  if (answer === undefined) return false;
  const words = (release.atLeast(34) ? (answer.split('\n')[0] as string) : answer).split(/[ \t\r\n]+/).filter(Boolean);
  if (release.atLeast(34) && words.length !== 1) return false;
  return words[0]?.toLowerCase() === 'y';
}

/** What delete.go PrintObj prints on stdout for one object. */
export function printedLine(cmd: KubectlDeleteCommand, name: string): string {
  return cmd.outputName
    ? `${KIND_STRING[cmd.resource]}/${name}`
    : `${KIND_STRING[cmd.resource]} "${name}" ${cmd.operation}`;
}

/** client-go rest.Request.Namespace / Name: the error for a path-unsafe segment, checked as each request is built. */
export function pathSegmentError(cmd: KubectlDeleteCommand, name?: string): string | undefined {
  const nsProblems = CLUSTER_SCOPED.has(cmd.resource) ? [] : pathSegmentProblems(cmd.namespace);
  if (nsProblems.length > 0) return `invalid namespace ${q(cmd.namespace)}: [${nsProblems.join(' ')}]`;
  if (name === undefined) return undefined;
  if (name === '') return 'resource name may not be empty';
  const nameProblems = pathSegmentProblems(name);
  return nameProblems.length > 0 ? `invalid resource name ${q(name)}: [${nameProblems.join(' ')}]` : undefined;
}

/** What kubectl prints when --timeout runs out while waiting (kubectl/pkg/cmd/wait IsDeleted, extendErrWaitTimeout). */
export function waitTimeoutMessage(cmd: KubectlDeleteCommand, name: string): string {
  return `error: timed out waiting for the condition on ${cmd.resource}/${name}`;
}
