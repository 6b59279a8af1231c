/**
 * Generates docs/steps.md, the step catalogue, from the step definitions themselves: it loads the
 * support code the way `cucumber-js` does (`loadConfiguration` + `loadSupport` from
 * `@cucumber/cucumber/api`, default profile of cucumber.js) and reads cucumber's registry of step
 * definitions and parameter types. Nothing in the catalogue's step tables is written by hand.
 *
 * It also checks the scenario vocabulary contract, the phrases users' scenarios rely on and that are
 * never renamed or loosened (CONTRACT below): every contract phrase, written as a scenario would
 * write it, must match exactly one step definition, and that definition must take the doc string
 * or table the contract gives it.
 *
 *   node --require ./scripts/ts-hook.js scripts/step-catalogue.ts --write   writes docs/steps.md
 *   node --require ./scripts/ts-hook.js scripts/step-catalogue.ts --check   exits 1 if docs/steps.md is stale
 *   node --require ./scripts/ts-hook.js scripts/step-catalogue.ts           prints the catalogue
 *
 * Both modes exit 1, naming the phrase, when a contract phrase has no step definition.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { loadConfiguration, loadSupport } from '@cucumber/cucumber/api';
import { COMPONENTS } from '../src/foundation/timeline/event';
import { allEventSites, renderEventSites, type EventSite } from './timeline-events';
import { widest } from '../src/foundation/widest';

export const ROOT = path.resolve(__dirname, '..');
export const CATALOGUE_PATH = path.join(ROOT, 'docs', 'steps.md');
export const STALE_MESSAGE = 'docs/steps.md is stale: run npm run steps:doc';

export type Keyword = 'Given' | 'When' | 'Then';
export type ArgumentKind = 'doc string' | 'table';

/** One phrase of the scenario vocabulary contract. */
export interface ContractPhrase {
  keyword: Keyword;
  expression: string;
  argument?: ArgumentKind;
}

const given = (expression: string, argument?: ArgumentKind): ContractPhrase => ({
  keyword: 'Given',
  expression,
  argument,
});
const when = (expression: string, argument?: ArgumentKind): ContractPhrase => ({
  keyword: 'When',
  expression,
  argument,
});
const then = (expression: string, argument?: ArgumentKind): ContractPhrase => ({
  keyword: 'Then',
  expression,
  argument,
});

/** The contract phrases, exactly as scenarios have been written against them: add, never rename or loosen. */
export const CONTRACT: readonly ContractPhrase[] = [
  // Setup
  given('a node {string}'),
  given('a pod {string} running on node {string}'),
  given('a pod {string} running on node {string} with:', 'doc string'),
  given('a pod {string} that is not scheduled to any node'),
  given('container {string} of pod {string} ignores SIGTERM'),
  given('container {string} of pod {string} exits {duration} after SIGTERM'),
  given('container {string} of pod {string} has a preStop hook that takes {duration}'),
  given('volume {string} of pod {string} cannot be unmounted'),
  given('volume {string} of pod {string} takes {duration} to unmount'),
  given('node {string} is unreachable'),
  when('node {string} becomes reachable again'),
  when('the kubelet on node {string} restarts'),
  // Actions
  when('I run {command}'),
  when('I try to run {command}'),
  when('the user deletes pod {string}'),
  when('the user creates pod {string} on node {string}'),
  when('the user deletes pod {string} with options:', 'doc string'),
  when('a controller removes finalizer {string} from pod {string}'),
  when('a controller adds finalizer {string} to pod {string}'),
  when('{duration} pass'),
  when('{duration} passes'),
  when('the cluster settles'),
  // Assertions
  then('kubectl fails with {string}'),
  then('kubectl prints {string}'),
  then('pod {string} exists'),
  then('pod {string} is gone'),
  then('pod {string} is terminating'),
  then('pod {string} has phase {string}'),
  then('the last request returns {int}'),
  then('the last request fails with {int} {word}'),
  then('pod {string} has fields:', 'table'),
  then('the last request changed pod {string} like this:', 'table'),
  then('these events happen in order:', 'table'),
  then('these events happen in exactly this order:', 'table'),
  then('no {word} event {string} happens'),
  // Services and traffic (issue 19)
  given('a service {string} selecting pods with label {string}'),
  given('a service {string} with:', 'doc string'),
  given('container {string} of pod {string} has a readiness probe every {duration}'),
  given('container {string} of pod {string} has a readiness probe every {duration} that fails from SIGTERM on'),
  given('container {string} of pod {string} keeps serving for {duration} after SIGTERM'),
  given('container {string} of pod {string} stops accepting connections at SIGTERM'),
  given('kube-proxy on node {string} applies changes after {duration}'),
  given('the load balancer of service {string} notices endpoint changes after {duration}'),
  given('clients send a request to service {string} every {duration}'),
  given('clients send a request to service {string} every {duration} that takes {duration}'),
  given('clients outside the cluster send a request to service {string} every {duration}'),
  given('clients outside the cluster send a request to service {string} every {duration} that takes {duration}'),
  then('no request to service {string} fails'),
  then('{int} requests to service {string} fail'),
  then('requests to service {string} fail only between {word} and {word}'),
  then('the endpointslice of service {string} lists pod {string} as {word}'),
  then('the endpoints of service {string} list pod {string}'),
  then('the endpoints of service {string} do not list pod {string}'),
  // Workloads (issue 20): the scheduler, ReplicaSets and Deployments.
  given('a replicaset {string} with {int} replicas on node {string}'),
  given('a replicaset {string} with {int} replicas on node {string} with:', 'doc string'),
  given('a deployment {string} with {int} replicas'),
  given('a deployment {string} with {int} replicas with:', 'doc string'),
  when('replicaset {string} is scaled to {int}'),
  when('deployment {string} is scaled to {int}'),
  when('deployment {string} rolls out a new template'),
  then('the replicaset controller deletes pod {string}'),
  then('the replicaset controller creates a pod'),
  then('{kind} {string} has fields:', 'table'),
  then('{kind} {string} in namespace {string} has fields:', 'table'),
  // Workloads (issue 20): StatefulSets, Jobs, DaemonSets.
  given('a statefulset {string} with {int} replicas'),
  given('a statefulset {string} with {int} replicas with:', 'doc string'),
  given('a job {string}'),
  given('a job {string} with:', 'doc string'),
  given('a daemonset {string}'),
  when('statefulset {string} is scaled to {int}'),
  // Custom resources (issue 22).
  given('the custom resource definition in {string}'),
  given('the custom resource definition with:', 'doc string'),
  given('a {word} {string} with:', 'doc string'),
  // Volumes (issue 36): storage classes, CSI drivers, claims and attachments.
  given('a storage class {string} provisioned by CSI driver {string}'),
  given('a storageclass {string} with:', 'doc string'),
  given('CSI driver {string} attaches volumes after {duration}'),
  given('CSI driver {string} detaches volumes after {duration}'),
  then('volume {string} is attached to node {string}'),
  then('volume {string} is not attached to any node'),
  then('the volume of claim {string} is attached to node {string}'),
  then('the volume of claim {string} is not attached to any node'),
  then('claim {string} is bound'),
  then('claim {string} is pending'),
];

/** What a parameter looks like in a scenario: used to write each contract phrase as a scenario would. */
export const SAMPLES: Readonly<Record<string, string>> = {
  string: '"web"',
  int: '409',
  float: '1.5',
  word: 'kubelet',
  duration: '30s',
  command: '`kubectl delete pod web`',
  kind: 'deployment',
  '': 'anything',
};

/** How scenarios write each parameter type (built-in ones and this project's). */
const PARAMETER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  string: 'a quoted text, in single or double quotes: `"web"`, `\'pod "web" deleted\'`',
  int: 'a whole number: `200`, `409`',
  float: 'a decimal number: `1.5`',
  word: 'one word without spaces: `Conflict`, `kubelet`',
  duration:
    'a non-negative number and a unit (`ms`, `s`, `m`, `h`): `30s`, `1.5s`, `2m`, `1h`, `500ms`, or several from the largest unit down: `1m30s`, `1h15m`',
  command: 'a command line in backquotes: `` `kubectl delete pod web --grace-period=0 --force` ``',
};

/** The canonical timeline events: texts that scenarios match on, so they never change. */
const CANONICAL_EVENTS = [
  '| component | text | when |',
  '| --- | --- | --- |',
  '| apiserver | `DELETE pods/NAME` | a DELETE request arrives; the options that were set follow as `key=value`, in this order: `gracePeriodSeconds`, `propagationPolicy`, `orphanDependents`, `preconditions.uid`, `preconditions.resourceVersion`, `dryRun` (e.g. `DELETE pods/web gracePeriodSeconds=0 preconditions.uid=…`) |',
  '| apiserver | `UPDATE pods/NAME`, `PATCH pods/NAME`, `PATCH pods/NAME/status` | other writes |',
  '| etcd | `PUT /registry/pods/default/NAME` | a new version of the object is stored |',
  '| etcd | `DELETE /registry/pods/default/NAME` | the object leaves storage |',
  '| watch | `ADDED pods/NAME`, `MODIFIED pods/NAME`, `DELETED pods/NAME` | a watch event goes out |',
  "| kubelet | `ADD pods/NAME`, `UPDATE pods/NAME`, `DELETE pods/NAME`, `REMOVE pods/NAME` | the syncLoop gets that op (a graceful deletion normally gives DELETE twice, for the first DELETE's MODIFIED and for the kubelet's own final one, then REMOVE for DELETED; rules K10 and S1 in [rules/kubelet.md](rules/kubelet.md)) |",
  '| kubelet | `SyncTerminatingPod pods/NAME`, `SyncTerminatedPod pods/NAME` | a pod worker enters that step |',
  '| runtime | `preStop CONTAINER`, `SIGTERM CONTAINER`, `SIGKILL CONTAINER`, `exited CONTAINER` (code follows) | container runtime |',
  '| runtime | `sandbox stopped pods/NAME`, `sandbox removed pods/NAME` | pod sandbox |',
  '| volumes | `unmount VOLUME`, `unmounted VOLUME`, `unmount failed VOLUME` | volume manager |',
  "| status | `resources reclaimed pods/NAME`, `DELETE pods/NAME` | status manager's canBeDeleted holds (deletionTimestamp set, API phase terminal, and `TerminatePod` has run at the end of `SyncTerminatedPod`, i.e. upstream's podIsFinished; rule K36 in [rules/kubelet.md](rules/kubelet.md)) and its final DELETE; neither happens for a pod already gone from the API |",
  '| endpointslice | `updated SLICE` (then `: POD ready=… serving=… terminating=…` for each endpoint the write changed, or `POD removed`) | the EndpointSlice controller writes a slice (rule N7 in [rules/traffic.md](rules/traffic.md)) |',
  "| proxy | `node NODE applied SERVICE` (then `: ` and the endpoints traffic may use) | a node's kube-proxy puts changed rules in place (N14) |",
  "| traffic | `N failed requests to SERVICE` (then the reasons) | a second in which clients' requests failed (N16) |",
  '| apiserver | `CREATE databases.example.com/NAME`, `DELETE databases.example.com/NAME …`, `DELETECOLLECTION databases.example.com …`, `UPDATE customresourcedefinitions/NAME/status` | the generic texts for custom resources, named `<plural>.<group>` (their watch events too: `MODIFIED databases.example.com/NAME`), and for CRDs (rules A4, A5 in [rules/custom-resources.md](rules/custom-resources.md)) |',
  "| gc | `resync monitors: RESOURCES` | the garbage collector's Sync found custom resources come or go and now follows them (A7) |",
].join('\n');

// ---------------------------------------------------------------------------------------------
// Reading cucumber's registry. Only the members used here are typed: cucumber's public
// ISupportCodeLibrary type hides them, but they are what its own formatters read.

interface AstNode {
  readonly type: string;
  readonly nodes?: readonly AstNode[];
  text(): string;
}

interface LoadedExpression {
  readonly source: string;
  readonly regexp: RegExp;
  readonly ast?: AstNode;
  match(text: string): readonly unknown[] | null;
}

interface LoadedStepDefinition {
  readonly keyword: string;
  readonly pattern: string | RegExp;
  readonly expression: LoadedExpression;
  readonly code: (...args: unknown[]) => unknown;
  readonly unwrappedCode?: (...args: unknown[]) => unknown;
  readonly uri: string;
  readonly line: number;
}

interface LoadedParameterType {
  readonly name: string | undefined;
  readonly regexpStrings: readonly string[];
  readonly builtin?: boolean;
}

interface LoadedLibrary {
  readonly stepDefinitions: readonly LoadedStepDefinition[];
  readonly parameterTypeRegistry: {
    readonly parameterTypes: Iterable<LoadedParameterType>;
    lookupSource(parameterType: LoadedParameterType): { uri: string; line: number } | undefined;
  };
}

/** One step definition as the catalogue shows it. */
export interface StepEntry {
  keyword: string;
  group: Group;
  expression: string;
  /** Names of the parameter types in the expression, in order. */
  parameters: string[];
  argument?: ArgumentKind;
  comment?: string;
  uri: string;
  line: number;
  /** Whether `text` (a step's text without its keyword) matches this definition. */
  matches(text: string): boolean;
}

export interface ParameterEntry {
  name: string;
  regexps: readonly string[];
  builtin: boolean;
  uri?: string;
  comment?: string;
}

export interface Catalogue {
  steps: StepEntry[];
  parameterTypes: ParameterEntry[];
  /** Every event text the code can write to the timeline (scripts/timeline-events.ts). */
  events?: readonly EventSite[];
}

export type Group = 'Setup' | 'Actions' | 'Assertions' | 'Other';
const GROUPS: readonly Group[] = ['Setup', 'Actions', 'Assertions', 'Other'];
const GROUP_KEYWORD: Readonly<Record<Group, string>> = {
  Setup: 'Given',
  Actions: 'When',
  Assertions: 'Then',
  Other: '',
};

/** Setup = Given, Actions = When, Assertions = Then; a definition made with `defineStep` goes by its file's name. */
export function groupOf(keyword: string, uri: string): Group {
  if (keyword === 'Given') return 'Setup';
  if (keyword === 'When') return 'Actions';
  if (keyword === 'Then') return 'Assertions';
  const file = path.basename(uri);
  if (file.startsWith('setup.')) return 'Setup';
  if (file.startsWith('actions.')) return 'Actions';
  if (file.startsWith('assertions.')) return 'Assertions';
  return 'Other';
}

function parameterNames(expression: LoadedExpression): string[] {
  const names: string[] = [];
  const visit = (node: AstNode): void => {
    if (node.type === 'PARAMETER_NODE') names.push(node.text());
    else node.nodes?.forEach(visit);
  };
  if (expression.ast) {
    visit(expression.ast);
    return names;
  }
  // A regular expression: one parameter per capture group cucumber passes on (top-level groups).
  const groups = new RegExp(`${expression.regexp.source}|`).exec('')?.length ?? 1;
  return Array.from({ length: groups - 1 }, () => '(regexp group)');
}

/**
 * The JSDoc block or run of `//` lines ending on the line directly above `line` (1-based), as one
 * line of text; undefined when there is none (a blank line between counts as none).
 */
export function commentAbove(lines: readonly string[], line: number): string | undefined {
  let i = line - 2;
  if (i < 0) return undefined;
  const collected: string[] = [];
  if (lines[i].trim().endsWith('*/')) {
    for (; i >= 0; i--) {
      collected.unshift(lines[i]);
      if (/^\s*\/\*/.test(lines[i])) break;
    }
    if (i < 0) return undefined;
    const body = collected
      .join('\n')
      .replace(/^\s*\/\*\*?/, '')
      .replace(/\*\/\s*$/, '')
      .split('\n')
      .map((l) => l.replace(/^\s*\*(?!\/) ?/, '').trim());
    return oneLine(body);
  }
  for (; i >= 0 && /^\s*\/\//.test(lines[i]); i--) collected.unshift(lines[i].replace(/^\s*\/\/\/?\s?/, '').trim());
  return oneLine(collected);
}

function oneLine(parts: readonly string[]): string | undefined {
  const text = parts
    .filter((p) => p !== '')
    .join(' ')
    .trim();
  return text === '' ? undefined : text;
}

/**
 * Whether the step function takes a doc string or a table: it does when it has one argument more
 * than the expression has parameters; which of the two is read from the parameter list in the
 * source (a `DataTable` parameter is a table, anything else a doc string).
 */
export function argumentKind(arity: number, parameterCount: number, sourceFromLine: string): ArgumentKind | undefined {
  if (arity <= parameterCount) return undefined;
  const header = /^[\s\S]*?(?:=>|\)\s*(?::[^{]*)?\{)/.exec(sourceFromLine)?.[0] ?? sourceFromLine;
  return /\bDataTable\b/.test(header) ? 'table' : 'doc string';
}

function relativeUri(uri: string): string {
  return path.relative(ROOT, path.resolve(ROOT, uri)).split(path.sep).join('/');
}

let loaded: Promise<Catalogue> | undefined;

/**
 * Loads the support code as `cucumber-js` would (cucumber.js, default profile) and reads its
 * registry. Node's module cache means the step files register only once per process, so the
 * result is kept and shared.
 */
export function loadCatalogue(): Promise<Catalogue> {
  loaded ??= readRegistry();
  return loaded;
}

async function readRegistry(): Promise<Catalogue> {
  const environment = { cwd: ROOT };
  const { runConfiguration } = await loadConfiguration({}, environment);
  const library = (await loadSupport(runConfiguration, environment)) as unknown as LoadedLibrary;
  const sources = new Map<string, string[]>();
  const sourceLines = (uri: string): string[] => {
    let lines = sources.get(uri);
    if (!lines) {
      lines = readFileSync(path.resolve(ROOT, uri), 'utf8').split(/\r?\n/);
      sources.set(uri, lines);
    }
    return lines;
  };

  const steps = library.stepDefinitions.map((d): StepEntry => {
    const uri = relativeUri(d.uri);
    const lines = sourceLines(d.uri);
    const parameters = parameterNames(d.expression);
    const arity = (d.unwrappedCode ?? d.code).length;
    return {
      keyword: d.keyword,
      group: groupOf(d.keyword, uri),
      expression: typeof d.pattern === 'string' ? d.pattern : `/${d.pattern.source}/`,
      parameters,
      argument: argumentKind(arity, parameters.length, lines.slice(d.line - 1, d.line + 9).join('\n')),
      comment: commentAbove(lines, d.line),
      uri,
      line: d.line,
      matches: (text) => d.expression.match(text) !== null,
    };
  });
  steps.sort(
    (a, b) => GROUPS.indexOf(a.group) - GROUPS.indexOf(b.group) || a.uri.localeCompare(b.uri) || a.line - b.line,
  );

  const used = new Set(steps.flatMap((s) => s.parameters));
  const parameterTypes: ParameterEntry[] = [];
  for (const p of library.parameterTypeRegistry.parameterTypes) {
    if (p.name === undefined || !used.has(p.name)) continue;
    const source = p.builtin ? undefined : library.parameterTypeRegistry.lookupSource(p);
    parameterTypes.push({
      name: p.name,
      regexps: p.regexpStrings,
      builtin: p.builtin === true,
      uri: source ? relativeUri(source.uri) : undefined,
      comment: source ? commentAbove(sourceLines(source.uri), source.line) : undefined,
    });
  }
  parameterTypes.sort((a, b) => Number(b.builtin) - Number(a.builtin) || a.name.localeCompare(b.name));
  return { steps, parameterTypes, events: allEventSites(ROOT) };
}

// ---------------------------------------------------------------------------------------------
// The contract check

/** A contract phrase written the way a scenario writes it: each `{type}` replaced by a sample value. */
export function sampleText(phrase: ContractPhrase): string {
  return phrase.expression.replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const sample = SAMPLES[name];
    if (sample === undefined)
      throw new Error(
        `no sample value for the parameter type ${whole} of contract phrase "${phrase.keyword} ${phrase.expression}": add one to SAMPLES`,
      );
    return sample;
  });
}

export function contractLabel(phrase: ContractPhrase): string {
  return `${phrase.keyword} ${phrase.expression}${phrase.argument ? ` + ${phrase.argument}` : ''}`;
}

/**
 * The step definitions each contract phrase matches, and what is wrong: a phrase that no
 * definition matches, that several match (cucumber would call it ambiguous), or whose definition
 * does not take the doc string or table that the contract gives it.
 */
export function checkContract(
  steps: readonly StepEntry[],
  contract: readonly ContractPhrase[] = CONTRACT,
): { problems: string[]; covers: Map<StepEntry, ContractPhrase[]> } {
  const problems: string[] = [];
  const covers = new Map<StepEntry, ContractPhrase[]>();
  for (const phrase of contract) {
    const text = sampleText(phrase);
    const matching = steps.filter((s) => s.matches(text));
    if (matching.length === 0) {
      problems.push(
        `contract phrase "${contractLabel(phrase)}" has no step definition (no definition matches "${phrase.keyword} ${text}")`,
      );
      continue;
    }
    if (matching.length > 1) {
      problems.push(
        `contract phrase "${contractLabel(phrase)}" is ambiguous: "${text}" matches ${matching.map((s) => `"${s.expression}" (${s.uri}:${s.line})`).join(', ')}`,
      );
    }
    for (const s of matching) {
      if (s.argument !== phrase.argument) {
        problems.push(
          `contract phrase "${contractLabel(phrase)}" matches "${s.expression}" (${s.uri}:${s.line}), which takes ${s.argument ?? 'no doc string or table'}`,
        );
      }
      covers.set(s, [...(covers.get(s) ?? []), phrase]);
    }
  }
  return { problems, covers };
}

const NO_NOTE = 'has no note';

/**
 * Every step has a note in the catalogue: the comment above its definition, saying what it does
 * and what its doc string or table may hold.
 */
export function missingNotes(steps: readonly StepEntry[]): string[] {
  return steps
    .filter((s) => !s.comment)
    .map(
      (s) =>
        `the step "${s.keyword} ${s.expression}" (${s.uri}:${s.line}) ${NO_NOTE}: write a comment (/** … */) directly above its definition saying what it does, what it takes and what it checks`,
    );
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** Inline code that survives backquotes inside and a surrounding Markdown table. */
export function code(text: string): string {
  const longest = widest(text.match(/`+/g) ?? [], (r) => r.length, 0);
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

export function renderCatalogue(catalogue: Catalogue): string {
  const { covers } = checkContract(catalogue.steps);
  const out: string[] = [];
  const contractCount = catalogue.steps.filter((s) => covers.has(s)).length;

  out.push('# Step catalogue');
  out.push('');
  out.push(
    '<!-- Generated by scripts/step-catalogue.ts from the step definitions in steps/; do not edit by hand: run `npm run steps:doc`. -->',
  );
  out.push('');
  out.push(
    `Every step that scenarios can use: the ${catalogue.steps.length} step definitions that cucumber loads (cucumber.js, ` +
      `default profile), read from cucumber's own registry. ${contractCount} of them carry the phrases of the scenario vocabulary ` +
      "contract (the phrases that users' scenarios rely on, never renamed or loosened), marked ✓ (with the contract phrases they carry where those are written differently); " +
      '`npm run steps:doc` fails when a contract phrase has no definition. A step marked "doc string" is followed by a `"""` ' +
      'block, one marked "table" by a Gherkin table.',
  );
  out.push('');
  out.push('## Before you start');
  out.push('');
  out.push(
    '- **A fresh cluster per scenario**, in namespace `default`, on a virtual clock: an apiserver with etcd, one kubelet per ' +
      "node, kube-scheduler (for pods no step binds), and kube-controller-manager's controllers: garbage collector, pod GC, node " +
      'lifecycle, taint eviction, and the workload controllers (ReplicaSet, Deployment, StatefulSet, Job, DaemonSet).',
  );
  out.push(
    '- **Time.** `Given` steps only plan. The first `When` or `Then` step builds the planned cluster and lets it run for one ' +
      'virtual minute, so the pods are running and the nodes Ready; that moment is `T+0`. Times in tables count from it, in whole ' +
      'seconds as Kubernetes writes them.',
  );
  out.push(
    '- **The default pod** (`a pod "web" running on node "node-1"`): one container `app` without a preStop hook that dies of ' +
      'SIGTERM at once (exit 143), `terminationGracePeriodSeconds` 30, `restartPolicy` Always. Steps about a container or a volume ' +
      'change that pod before T+0; a `with:` manifest changes anything else.',
  );
  out.push(
    '- **`with:` doc strings** are YAML or JSON: a partial manifest merged over the default object (a pod or a ReplicaSet), or ' +
      'the DeleteOptions of a DELETE. A wrong field, type or value is one error naming it.',
  );
  out.push(
    '- **`When I run` or `When I try to run`.** Both run a `kubectl delete …` line as kubectl does, waiting on the virtual ' +
      'clock until the object is gone unless told otherwise. `I run` fails the step when kubectl fails; `I try to run` lets the ' +
      'scenario check the failure with `kubectl fails with` or `the last request fails with`. The user and controller steps send ' +
      'one request each, without kubectl and without waiting.',
  );
  out.push(
    '- **A misspelt step** fails its scenario before the first step runs, naming the three nearest phrases below.',
  );
  out.push(
    '- Rule ids in the notes (R23, K36, S7, C2) are explained, with their upstream sources, in [rules/](rules/).',
  );

  for (const group of GROUPS) {
    const steps = catalogue.steps.filter((s) => s.group === group);
    if (steps.length === 0) continue;
    out.push('');
    out.push(`## ${group}${GROUP_KEYWORD[group] ? ` (${GROUP_KEYWORD[group]})` : ''}`);
    out.push('');
    out.push('| Step | Takes | Contract | Defined in | Notes |');
    out.push('| --- | --- | --- | --- | --- |');
    for (const s of steps) {
      const keyword = s.keyword === 'Unknown' ? '' : `${s.keyword} `;
      const phrases = covers.get(s);
      // The contract phrases are named when they are written differently from the definition (`{duration} pass(es)`).
      const named = phrases?.filter((p) => `${p.keyword} ${p.expression}` !== `${keyword}${s.expression}`) ?? [];
      const contract = phrases
        ? [
            '✓',
            ...(named.length > 0 ? [phrases.map((p) => code(`${p.keyword} ${p.expression}`)).join(', ')] : []),
          ].join(' ')
        : '';
      const file = `[${path.basename(s.uri)}](../${s.uri})`;
      out.push(
        `| ${cell(code(`${keyword}${s.expression}`))} | ${s.argument ?? ''} | ${cell(contract)} | ${file} | ${cell(s.comment ?? '')} |`,
      );
    }
  }

  out.push('');
  out.push('## Parameter types');
  out.push('');
  out.push('The parameter types that the steps above use; a step matches only when each parameter reads as its type.');
  out.push('');
  out.push('| Type | Written as | Defined in |');
  out.push('| --- | --- | --- |');
  for (const p of catalogue.parameterTypes) {
    const written =
      PARAMETER_DESCRIPTIONS[p.name] ??
      p.comment ??
      `text matching ${p.regexps.map((r) => code(`/${r}/`)).join(' or ')}`;
    const where = p.builtin ? 'built in (Cucumber Expressions)' : p.uri ? `[${path.basename(p.uri)}](../${p.uri})` : '';
    out.push(`| ${code(`{${p.name}}`)} | ${cell(written)} | ${where} |`);
  }

  out.push('');
  out.push('## Table cells');
  out.push('');
  out.push(
    '- `pod {string} has fields:` takes `| path | value |`; `the last request changed pod {string} like this:` takes ' +
      '`| path | from | to |`. Paths are JSON Pointers (`/metadata/deletionTimestamp`).',
  );
  out.push(
    '- A value cell is JSON (`30`, `"Failed"`, `["example.com/block"]`, `null`), or `<absent>` (the field is not set), ' +
      '`<any>` (any value, set or not), or `T+30s` (the RFC 3339 time, second precision, 30 virtual seconds after `T+0`). ' +
      'A cell that is not valid JSON is read as a string.',
  );
  out.push(
    '- The events tables take `| component | event |`, with an optional first column `at`. A row matches an event when the ' +
      "component is the same and the event's text starts with the row's text.",
  );
  out.push(
    "- An `at` cell is `T+30s` (the event's time, cut to whole seconds as Kubernetes writes it, is 30) or a range " +
      '`T+30s..T+33s` (that whole second lies between 30 and 33 inclusive); minutes and hours may be written too (`T+1m30s`).',
  );

  out.push('');
  out.push('## Components');
  out.push('');
  out.push(
    `The components of the timeline (the \`component\` column, and \`{word}\` in \`no {word} event {string} happens\`): ${COMPONENTS.map((c) => code(c)).join(', ')}.`,
  );
  out.push('');
  out.push('## Canonical timeline events');
  out.push('');
  out.push(
    'Each component and the text its event starts with. Other events may exist; these always have these texts, and the rules they follow are in [rules/](rules/).',
  );
  out.push('');
  out.push(CANONICAL_EVENTS);
  out.push('');
  if (catalogue.events) {
    out.push('### Every event, from the code');
    out.push('');
    out.push(
      `Generated from src/ (scripts/timeline-events.ts): each of the ${catalogue.events.length} places that write an event to the timeline, ` +
        'with its text as the code writes it — a value filled in at run time in capitals (`pods/NAME` is the pod, `CONTAINER` a container, ' +
        "`…` a computed value) — and the upstream function the event names as its source. A table row matches an event whose text starts with the row's text.",
    );
    out.push('');
    out.push(renderEventSites(catalogue.events));
    out.push('');
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Command line

export interface Outcome {
  exitCode: number;
  messages: string[];
  markdown: string;
}

export async function run(mode: 'write' | 'check' | 'print'): Promise<Outcome> {
  const catalogue = await loadCatalogue();
  const markdown = renderCatalogue(catalogue);
  const messages = [...checkContract(catalogue.steps).problems, ...missingNotes(catalogue.steps)];
  if (mode === 'write') {
    writeFileSync(CATALOGUE_PATH, markdown);
    messages.push(`wrote ${path.relative(ROOT, CATALOGUE_PATH)} (${catalogue.steps.length} steps)`);
  } else if (mode === 'check') {
    let committed: string | undefined;
    try {
      committed = readFileSync(CATALOGUE_PATH, 'utf8');
    } catch {
      committed = undefined;
    }
    messages.unshift(committed === markdown ? `${path.relative(ROOT, CATALOGUE_PATH)} is up to date` : STALE_MESSAGE);
  }
  const failed = messages.some((m) => m === STALE_MESSAGE || m.startsWith('contract phrase') || m.includes(NO_NOTE));
  return { exitCode: failed ? 1 : 0, messages, markdown };
}

async function main(argv: readonly string[]): Promise<number> {
  const unknown = argv.filter((a) => a !== '--write' && a !== '--check');
  if (unknown.length > 0 || (argv.includes('--write') && argv.includes('--check'))) {
    process.stderr.write('usage: step-catalogue.ts [--write | --check]\n');
    return 2;
  }
  const mode = argv.includes('--write') ? 'write' : argv.includes('--check') ? 'check' : 'print';
  const outcome = await run(mode);
  if (mode === 'print') process.stdout.write(outcome.markdown);
  for (const m of outcome.messages) (outcome.exitCode === 0 ? process.stdout : process.stderr).write(`${m}\n`);
  return outcome.exitCode;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (exitCode) => {
      process.exitCode = exitCode;
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
