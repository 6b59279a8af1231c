import { parseLabelSelector } from '../../apimachinery/selectors';
import {
  dryRunStrategy,
  GLOBAL_FLAGS,
  KubectlError,
  parseFlags,
  splitCommandLine,
  unsupported,
  type FlagSpec,
  type FlagValue,
} from './delete-command';

/**
 * `kubectl drain|cordon|uncordon …` as kubectl reads it (checked against v1.36 and v1.33) (staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go
 * NewCmdDrain, NewCmdCordon, NewCmdUncordon, DrainCmdOptions.Complete): the flags of each command
 * and the checks Complete makes before the first request.
 */
export type DrainVerb = 'drain' | 'cordon' | 'uncordon';

export interface KubectlDrainCommand {
  verb: DrainVerb;
  /** The nodes named (the builder GETs each), or none with --selector (it LISTs them). */
  nodes: string[];
  /** -l/--selector over nodes. */
  selector?: string;
  dryRun: 'none' | 'client' | 'server';
  force: boolean;
  ignoreDaemonSets: boolean;
  deleteEmptyDirData: boolean;
  /** -1: each pod's own grace. */
  gracePeriodSeconds: number;
  /** 0: no timeout. */
  timeoutMs: number;
  /** --pod-selector, as labels.Parse(…).String() prints it ('' when empty). */
  podSelector: string;
  disableEviction: boolean;
  skipWaitForDeleteTimeoutSeconds: number;
  chunkSize: number;
  warnings: string[];
}

const DRAIN_FLAGS: FlagSpec[] = [
  { name: 'namespace', short: 'n', kind: 'string', modelled: true, global: true },
  { name: 'force', kind: 'bool', modelled: true },
  { name: 'ignore-daemonsets', kind: 'bool', modelled: true },
  { name: 'delete-emptydir-data', kind: 'bool', modelled: true },
  { name: 'grace-period', kind: 'int', modelled: true },
  { name: 'timeout', kind: 'duration', modelled: true },
  { name: 'pod-selector', kind: 'string', modelled: true },
  { name: 'disable-eviction', kind: 'bool', modelled: true },
  { name: 'skip-wait-for-delete-timeout', kind: 'int', modelled: true },
  { name: 'chunk-size', kind: 'int', modelled: true },
  { name: 'dry-run', kind: 'string', noOpt: 'unchanged', modelled: true },
  { name: 'selector', short: 'l', kind: 'string', modelled: true },
  { name: 'help', short: 'h', kind: 'bool' },
  ...GLOBAL_FLAGS,
];

/** cordon and uncordon have only --selector and --dry-run of their own. */
const CORDON_FLAGS = new Set(['namespace', 'dry-run', 'selector', 'help']);

/**
 * labels.Parse(…).String(): undefined for a selector that does not parse; otherwise its
 * requirements without blanks, sorted by key (labels.Parse sorts them).
 */
function canonicalSelector(selector: string): string | undefined {
  try {
    parseLabelSelector(selector);
  } catch {
    return undefined;
  }
  const parts = selector.split(/,(?![^(]*\))/).map((p) => p.trim().replace(/\s*(!=|==|=)\s*/, '$1'));
  const key = (p: string) => p.replace(/^!/, '').split(/!=|==|=|\bin\(|\bnotin\(/)[0] ?? p;
  return parts.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).join(',');
}

export function parseKubectlDrain(commandLine: string): KubectlDrainCommand {
  const words = splitCommandLine(commandLine);
  const verb = words[1] as DrainVerb;
  const registered = (spec: FlagSpec) => verb === 'drain' || CORDON_FLAGS.has(spec.name) || spec.global === true;
  const parsed = parseFlags(words.slice(1), registered, DRAIN_FLAGS);
  const warnings = parsed.warnings;
  const fail: (message: string) => never = (message) => {
    throw new KubectlError(message, [...warnings]);
  };
  if (parsed.error !== undefined) fail(`error: ${parsed.error}\nSee 'kubectl ${verb} --help' for usage.`);
  if (parsed.unmodelled.length > 0) throw unsupported(`flag ${parsed.unmodelled.join(', ')}`);
  const flag = <T extends FlagValue>(name: string, fallback: T): T =>
    (parsed.values.get(name) as T | undefined) ?? fallback;
  const nodes = parsed.positionals.slice(1);
  const selector = flag<string>('selector', '');
  const usage = (message: string) => fail(`${message}\nSee 'kubectl ${verb} -h' for help and examples`);
  // Complete: a node or --selector, not both.
  if (nodes.length === 0 && !parsed.values.has('selector')) usage(`error: USAGE: ${verb} NODE [flags]`);
  if (nodes.length > 0 && selector.length > 0) usage('error: cannot specify both a node name and a --selector option');
  const dryRun = dryRunStrategy(flag<string>('dry-run', 'none'), warnings, fail);
  const podSelectorFlag = flag<string>('pod-selector', '');
  let podSelector = '';
  if (podSelectorFlag.length > 0) {
    const parsedSelector = canonicalSelector(podSelectorFlag);
    if (parsedSelector === undefined) fail('error: --pod-selector=<pod_selector> must be a valid label selector');
    podSelector = parsedSelector;
  }
  const timeoutNs = flag<bigint>('timeout', 0n);
  return {
    verb,
    nodes,
    ...(selector.length > 0 ? { selector } : {}),
    dryRun,
    force: flag('force', false),
    ignoreDaemonSets: flag('ignore-daemonsets', false),
    deleteEmptyDirData: flag('delete-emptydir-data', false),
    gracePeriodSeconds: Number(flag<bigint>('grace-period', -1n)),
    timeoutMs: Number(timeoutNs / 1_000_000n),
    podSelector,
    disableEviction: flag('disable-eviction', false),
    skipWaitForDeleteTimeoutSeconds: Number(flag<bigint>('skip-wait-for-delete-timeout', 0n)),
    chunkSize: Number(flag<bigint>('chunk-size', 500n)),
    warnings,
  };
}

/** Whether a kubectl line is one of the node commands this module reads. */
export function isDrainLine(commandLine: string): boolean {
  const verb = splitCommandLine(commandLine)[1];
  return verb === 'drain' || verb === 'cordon' || verb === 'uncordon';
}
