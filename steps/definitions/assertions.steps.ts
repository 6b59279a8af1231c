import { Then, type DataTable } from '@cucumber/cucumber';
import { toYaml } from '../../src/frontends/yaml-output';
import type { Pod } from '../../src/apimachinery/types';
import type { Resource } from '../../src/apiserver/apiserver';
import { ANY, checkChanges, parseCell, parsePath, show, valueAt, type ChangeRow } from '../../src/planning/changes';
import { jsonEqual, type KubeObject } from '../../src/apimachinery/object';
import {
  checkExactOrder,
  checkInOrder,
  parseAt,
  parseComponent,
  pastTheEnd,
  secondOf,
  TableError,
  type EventRow,
  type TimelineEnd,
} from '../../src/foundation/timeline/match';
import { formatTimeline } from '../../src/foundation/timeline/text';
import { resolveKind } from './custom-resources.steps';
import { ScenarioError, type TerminatingWorld } from '../support/world';

function getPod(world: TerminatingWorld, name: string): Pod | undefined {
  // A Then step may be the first step after the Givens: the planned cluster must exist first.
  world.ensureStarted();
  const r = world.cluster.apiserver.get('pods', world.podNamespace(name), name);
  return r.ok ? r.object : undefined;
}

function requirePod(world: TerminatingWorld, name: string): Pod {
  const pod = getPod(world, name);
  if (!pod) throw new Error(`pod "${name}" does not exist (any more).\n${recentTimeline(world)}`);
  return pod;
}

/** Where the scenario's clock stands, for failures that may only mean "not yet". */
function timelineEnd(world: TerminatingWorld): TimelineEnd {
  return { now: world.cluster.clock.now(), nextDue: world.cluster.clock.nextForegroundAt() };
}

/** A failure's note that time stopped after the last step, with the step that lets it run on. */
function notYet(world: TerminatingWorld): string {
  return pastTheEnd(undefined, timelineEnd(world), world.start);
}

function recentTimeline(world: TerminatingWorld): string {
  return `Timeline from T+0:\n${formatTimeline(world.cluster.timeline.since(world.start), world.start)}`;
}

/** Reads a table's rows by header names, failing clearly when a column is missing or unknown. */
function rowsOf(table: DataTable, required: string[], optional: string[] = []): Record<string, string>[] {
  const [header, ...rows] = table.raw();
  const names = header.map((h) => h.trim());
  const missing = required.filter((r) => !names.includes(r));
  const unknown = names.filter((n) => !required.includes(n) && !optional.includes(n));
  if (missing.length > 0 || unknown.length > 0) {
    const want = [...optional.map((o) => `[${o}]`), ...required].join(' | ');
    throw new TableError(
      `the table needs the columns | ${want} | but its header is | ${names.join(' | ')} |${missing.length ? ` (missing: ${missing.join(', ')})` : ''}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
    );
  }
  return rows.map((r) => Object.fromEntries(names.map((n, i) => [n, r[i]])));
}

function eventRows(table: DataTable): EventRow[] {
  return rowsOf(table, ['component', 'event'], ['at']).map((r) => ({
    at: r.at !== undefined && r.at.trim() !== '' ? parseAt(r.at) : undefined,
    component: parseComponent(r.component),
    text: r.event.trim(),
  }));
}

/**
 * The pod is still stored in the apiserver, terminating or not.
 */
Then('pod {string} exists', function (this: TerminatingWorld, name: string) {
  requirePod(this, name);
});

/**
 * The pod is no longer stored (a GET answers 404).
 */
Then('pod {string} is gone', function (this: TerminatingWorld, name: string) {
  const pod = getPod(this, name);
  if (pod)
    throw new Error(
      `pod "${name}" still exists (deletionTimestamp ${pod.metadata.deletionTimestamp ?? 'unset'}, finalizers ${JSON.stringify(pod.metadata.finalizers ?? [])}, phase ${pod.status?.phase}).${notYet(this)}\n${recentTimeline(this)}`,
    );
});

/**
 * The pod is stored and has a `deletionTimestamp`.
 */
Then('pod {string} is terminating', function (this: TerminatingWorld, name: string) {
  const pod = requirePod(this, name);
  if (!pod.metadata.deletionTimestamp)
    throw new Error(`pod "${name}" exists but is not terminating (no deletionTimestamp).\n${recentTimeline(this)}`);
});

/**
 * The stored `status.phase`: Pending, Running, Succeeded, Failed or Unknown.
 */
Then('pod {string} has phase {string}', function (this: TerminatingWorld, name: string, phase: string) {
  const pod = requirePod(this, name);
  if (pod.status?.phase !== phase)
    throw new Error(
      `pod "${name}" has phase ${pod.status?.phase}, not ${phase}.${notYet(this)}\n${recentTimeline(this)}`,
    );
});

/** The rows of a `| path | value |` table, read (and checked) before the object is looked up. */
function fieldRows(table: DataTable): { path: string; value: string }[] {
  return rowsOf(table, ['path', 'value']).map((row) => ({ path: parsePath(row.path), value: row.value }));
}

function checkFields(
  world: TerminatingWorld,
  what: string,
  obj: unknown,
  rows: { path: string; value: string }[],
): void {
  const problems: string[] = [];
  for (const row of rows) {
    const expected = parseCell(row.value, world.start);
    const actual = valueAt(obj, row.path);
    const same =
      expected === ANY ||
      expected === actual ||
      (typeof expected !== 'symbol' && typeof actual !== 'symbol' && jsonEqual(expected, actual));
    if (!same)
      problems.push(`${row.path}: expected ${show(expected, world.start)}, actual ${show(actual, world.start)}`);
  }
  if (problems.length > 0)
    throw new Error(
      `${what} does not have the expected fields:\n${problems.join('\n')}\n\nThe object:\n${toYaml(obj)}`,
    );
}

/**
 * Fields of the stored pod, `| path | value |` (see Table cells); fields not listed are not
 * checked.
 */
Then('pod {string} has fields:', function (this: TerminatingWorld, name: string, table: DataTable) {
  const rows = fieldRows(table);
  checkFields(this, `pod "${name}"`, requirePod(this, name), rows);
});

/**
 * The same for an object of any other served kind (`deployment`, `configmap`, `service`,
 * `poddisruptionbudget`, `namespace`, `node`, a custom resource's kind …; any name kubectl takes),
 * in namespace default when the kind is namespaced.
 */
Then('{kind} {string} has fields:', function (this: TerminatingWorld, kind: string, name: string, table: DataTable) {
  objectHasFields(this, kind, name, undefined, table);
});

/** The same for an object in another namespace (a manifest's `metadata.namespace` is kept, R240). */
Then(
  '{kind} {string} in namespace {string} has fields:',
  function (this: TerminatingWorld, kind: string, name: string, namespace: string, table: DataTable) {
    objectHasFields(this, kind, name, namespace, table);
  },
);

function objectHasFields(
  world: TerminatingWorld,
  kind: string,
  name: string,
  namespace: string | undefined,
  table: DataTable,
): void {
  const rows = fieldRows(table);
  const known = STORED_KINDS[kind];
  const target = known ? { resource: known, namespaced: known !== 'nodes' } : resolveKind(world, kind);
  if (namespace !== undefined && !target.namespaced)
    throw new ScenarioError(`${kind} is not namespaced: write  Then ${kind} "${name}" has fields:`);
  world.ensureStarted();
  const ns = target.namespaced ? (namespace ?? 'default') : undefined;
  const got = world.cluster.apiserver.get(target.resource as Resource, ns, name);
  const what = `${kind} "${name}"${namespace !== undefined ? ` in namespace "${namespace}"` : ''}`;
  if (!got.ok) throw new Error(`${what} does not exist`);
  checkFields(world, what, got.object as KubeObject, rows);
}

/** The kinds `{kind} {string} has fields:` reads, by the word a scenario uses. */
const STORED_KINDS: Readonly<Record<string, Resource>> = {
  replicaset: 'replicasets',
  deployment: 'deployments',
  statefulset: 'statefulsets',
  daemonset: 'daemonsets',
  job: 'jobs',
  controllerrevision: 'controllerrevisions',
  node: 'nodes',
  event: 'events',
};

/**
 * The HTTP code of the last request an action step sent (the user's, a controller's, or the one
 * that carried kubectl's action).
 */
Then('the last request returns {int}', function (this: TerminatingWorld, code: number) {
  const r = this.lastResponse;
  if (!r) throw new ScenarioError('no API request has been made by an action step yet');
  if (r.code !== code)
    throw new Error(
      `the last request returned ${r.code}${r.ok ? '' : ` ${r.status.reason}: ${r.status.message}`}, not ${code}`,
    );
});

/**
 * The last request's error: its HTTP code and the Status reason (`404 NotFound`, `409 Conflict`,
 * `409 AlreadyExists`, `422 Invalid`, `400 BadRequest`).
 */
Then('the last request fails with {int} {word}', function (this: TerminatingWorld, code: number, reason: string) {
  const r = this.lastResponse;
  if (!r) throw new ScenarioError('no API request has been made by an action step yet');
  if (r.ok) throw new Error(`the last request succeeded with ${r.code}; expected ${code} ${reason}`);
  if (r.code !== code || r.status.reason !== reason)
    throw new Error(
      `the last request failed with ${r.code} ${r.status.reason} (${r.status.message}); expected ${code} ${reason}`,
    );
});

/**
 * As above, and the Status message contains the text.
 */
Then(
  'the last request fails with {int} {word} saying {string}',
  function (this: TerminatingWorld, code: number, reason: string, text: string) {
    const r = this.lastResponse;
    if (!r || r.ok || r.code !== code || r.status.reason !== reason || !r.status.message.includes(text)) {
      throw new Error(
        `expected the last request to fail with ${code} ${reason} saying "${text}"; it ${!r ? 'was never made' : r.ok ? `succeeded with ${r.code}` : `failed with ${r.code} ${r.status.reason}: ${r.status.message}`}`,
      );
    }
  },
);

/** Checks what one API request changed on a pod (its stored version before vs. its last write). */
function checkRequestChanges(
  world: TerminatingWorld,
  requestId: number,
  name: string,
  table: DataTable,
  resource: 'pods' | 'replicasets' = 'pods',
): void {
  const api = world.cluster.apiserver;
  const record = api.request(requestId);
  if (!record) throw new ScenarioError('that action sent no request to the apiserver');
  const key = api.keyFor(resource, resource === 'pods' ? world.podNamespace(name) : 'default', name);
  const before = api.objectAt(key, record.revisionBefore);
  const writes = api.etcd.keyHistory(key).filter((e) => e.requestId === record.id);
  const after = writes.length > 0 ? writes[writes.length - 1].value : before;
  const rows: ChangeRow[] = rowsOf(table, ['path', 'from', 'to']).map((row) => ({
    path: parsePath(row.path),
    from: row.from,
    to: row.to,
  }));
  const failure = checkChanges(before, after, rows, world.start);
  const request = world.cluster.timeline
    .since(world.start)
    .find((e) => e.component === 'apiserver' && e.requestId === record.id);
  const problems = failure?.split('\n\n')[0]?.split('\n').join('; ');
  if (request)
    world.marks.rows.push({
      seq: request.seq,
      kind: failure ? 'mismatch' : 'matched',
      note: problems ? `changes differ from the table: ${problems}` : 'changes as listed',
    });
  // The request as the timeline names it (with its subresource and options), else its verb and object.
  const what = request?.text ?? `${record.verb} ${record.resource}/${record.name}`;
  if (failure)
    throw new Error(
      `the request ${what} (#${record.id}) did not change ${resource === 'pods' ? 'pod' : 'replicaset'} "${name}" as listed:\n${failure}`,
    );
}

/**
 * Every field the last request changed on the pod, `| path | from | to |` (`resourceVersion` and
 * managed fields excepted); a missing or an extra row fails and prints the actual table, ready to
 * paste.
 */
Then(
  'the last request changed pod {string} like this:',
  function (this: TerminatingWorld, name: string, table: DataTable) {
    const r = this.lastResponse;
    if (!r) throw new ScenarioError('no API request has been made by an action step yet');
    checkRequestChanges(this, r.requestId, name, table);
  },
);

/**
 * The same for a ReplicaSet.
 */
Then(
  'the last request changed replicaset {string} like this:',
  function (this: TerminatingWorld, name: string, table: DataTable) {
    const r = this.lastResponse;
    if (!r) throw new ScenarioError('no API request has been made by an action step yet');
    checkRequestChanges(this, r.requestId, name, table, 'replicasets');
  },
);

/**
 * The same for the last apiserver request from T+0 whose timeline text starts with the string,
 * e.g. `"DELETE pods/web gracePeriodSeconds=0"` for the kubelet's final DELETE.
 */
Then(
  'the request {string} changed pod {string} like this:',
  function (this: TerminatingWorld, text: string, name: string, table: DataTable) {
    const events = this.cluster.timeline
      .since(this.start)
      .filter((e) => e.component === 'apiserver' && e.text.startsWith(text) && e.requestId !== undefined);
    if (events.length === 0) {
      const requests = this.cluster.timeline.since(this.start).filter((e) => e.component === 'apiserver');
      throw new Error(
        `no apiserver request from T+0 on starts with "${text}"; the requests were:\n${formatTimeline(requests, this.start)}`,
      );
    }
    checkRequestChanges(this, events[events.length - 1].requestId!, name, table);
  },
);

/**
 * Fields of the pod's last stored state, the one its DELETED watch event carried (R57), `| path |
 * value |`. Fails if the pod was never removed.
 */
Then('pod {string} was removed with fields:', function (this: TerminatingWorld, name: string, table: DataTable) {
  const rows = fieldRows(table);
  const api = this.cluster.apiserver;
  const history = api.etcd.keyHistory(api.keyFor('pods', this.podNamespace(name), name));
  const removal = [...history].reverse().find((e) => e.type === 'DELETE');
  if (!removal)
    throw new Error(`pod "${name}" was never removed from storage.${notYet(this)}\n${recentTimeline(this)}`);
  checkFields(this, `the last stored state of pod "${name}" (its DELETED payload)`, removal.value, rows);
});

/**
 * The stored pod's condition of that type (e.g. Ready, DisruptionTarget) has this status and
 * reason.
 */
Then(
  'pod {string} has condition {string} with status {string} and reason {string}',
  function (this: TerminatingWorld, name: string, type: string, status: string, reason: string) {
    checkCondition(`pod "${name}"`, requirePod(this, name), type, { status, reason });
  },
);

/**
 * What a condition must be: its status, and its reason (a text; `null` for "no reason"; left out
 * for "any reason").
 */
export interface ExpectedCondition {
  status: string;
  reason?: string | null;
}

/** An object with status conditions (a pod, a node, a namespace). */
export interface WithConditions {
  status?: { conditions?: { type: string; status: string; reason?: string }[] };
}

/** Finds the object's condition by type and compares it; the failure shows all its conditions. */
export function checkCondition(what: string, obj: WithConditions, type: string, expected: ExpectedCondition): void {
  const conditions = obj.status?.conditions ?? [];
  const c = conditions.find((x) => x.type === type);
  const reasonOk =
    expected.reason === undefined ||
    (expected.reason === null ? c?.reason === undefined || c.reason === '' : c?.reason === expected.reason);
  if (c && c.status === expected.status && reasonOk) return;
  const want = `status ${expected.status}${expected.reason === undefined ? '' : expected.reason === null ? ' and no reason' : ` and reason ${expected.reason}`}`;
  const got = c ? `status ${c.status} and ${c.reason ? `reason ${c.reason}` : 'no reason'}` : 'no such condition';
  throw new Error(
    `${what} has condition ${type} with ${got}; expected ${want}.\nIts conditions:\n${toYaml(conditions)}`,
  );
}

/** The pod's last stored state: the object its DELETED watch event carried (R57). */
function removedPod(world: TerminatingWorld, name: string): Pod {
  world.ensureStarted();
  const api = world.cluster.apiserver;
  const removal = [...api.etcd.keyHistory(api.keyFor('pods', world.podNamespace(name), name))]
    .reverse()
    .find((e) => e.type === 'DELETE');
  if (!removal) throw new Error(`pod "${name}" was never removed from storage.\n${recentTimeline(world)}`);
  return removal.value as Pod;
}

/** The stored pod's condition of that type has this status and no reason (unset or empty), e.g. the kubelet's `Ready` while the pod runs. */
Then(
  'pod {string} has condition {string} with status {string} and no reason',
  function (this: TerminatingWorld, name: string, type: string, status: string) {
    checkCondition(`pod "${name}"`, requirePod(this, name), type, { status, reason: null });
  },
);

/** The stored pod's condition of that type has this status, whatever its reason. */
Then(
  'pod {string} has condition {string} with status {string}',
  function (this: TerminatingWorld, name: string, type: string, status: string) {
    checkCondition(`pod "${name}"`, requirePod(this, name), type, { status });
  },
);

/** The stored pod has no condition of that type, e.g. no `DisruptionTarget` after a plain deletion. */
Then('pod {string} has no condition {string}', function (this: TerminatingWorld, name: string, type: string) {
  const pod = requirePod(this, name);
  const c = pod.status?.conditions?.find((x) => x.type === type);
  if (c)
    throw new Error(
      `pod "${name}" has condition ${type} (status ${c.status}${c.reason ? `, reason ${c.reason}` : ''}); expected none.\nIts conditions:\n${toYaml(pod.status?.conditions ?? [])}`,
    );
});

/** The pod was removed, and its last stored state (its DELETED payload, R57) has that condition with this status and reason. */
Then(
  'pod {string} was removed with condition {string} with status {string} and reason {string}',
  function (this: TerminatingWorld, name: string, type: string, status: string, reason: string) {
    checkCondition(`the last stored state of pod "${name}"`, removedPod(this, name), type, { status, reason });
  },
);

/** The same, for a condition without a reason. */
Then(
  'pod {string} was removed with condition {string} with status {string} and no reason',
  function (this: TerminatingWorld, name: string, type: string, status: string) {
    checkCondition(`the last stored state of pod "${name}"`, removedPod(this, name), type, { status, reason: null });
  },
);

/**
 * The rows match timeline events from T+0 in this order; other events may come between them. `| at
 * | component | event |`, `at` optional (see Table cells).
 */
Then('these events happen in order:', function (this: TerminatingWorld, table: DataTable) {
  const result = checkInOrder(this.cluster.timeline.since(this.start), eventRows(table), this.start, timelineEnd(this));
  this.mark(result.marks);
  if (result.failure) throw new Error(result.failure);
});

/**
 * As above, but strict: in the timeline narrowed to the components the table names, the rows match
 * consecutive events, with nothing else between them.
 */
Then('these events happen in exactly this order:', function (this: TerminatingWorld, table: DataTable) {
  const result = checkExactOrder(
    this.cluster.timeline.since(this.start),
    eventRows(table),
    this.start,
    timelineEnd(this),
  );
  this.mark(result.marks);
  if (result.failure) throw new Error(result.failure);
});

/**
 * No timeline event of that component starts with the text while its time, in whole seconds after
 * T+0 as in the `at` cells, lies between the two (both included): `no podgc event "force delete"
 * happens between T+0s and T+39s`. The clock must have reached the window's end (a step such as
 * `When 40s pass` first): a window past the end of the timeline is refused, not passed.
 */
Then(
  'no {word} event {string} happens between T+{duration} and T+{duration}',
  function (this: TerminatingWorld, component: string, text: string, fromMs: number, toMs: number) {
    const c = parseComponent(component);
    if (fromMs % 1000 !== 0 || toMs % 1000 !== 0)
      throw new ScenarioError(
        `the times of "between T+… and T+…" are whole seconds, as in the at cells (got ${fromMs / 1000}s and ${toMs / 1000}s)`,
      );
    if (toMs < fromMs)
      throw new ScenarioError(`"between T+${fromMs / 1000}s and T+${toMs / 1000}s" ends before it starts`);
    const t0 = this.start;
    // A window the clock has not reached yet would pass for nothing having happened in it yet.
    const now = this.cluster.clock.now() - t0;
    if (now < toMs)
      throw new ScenarioError(
        `"between T+${fromMs / 1000}s and T+${toMs / 1000}s" reaches past the end of the timeline: ${pastTheEnd({ component: c, text, at: { from: toMs / 1000, to: toMs / 1000 } }, timelineEnd(this), t0).trim()}`,
      );
    const hits = this.cluster.timeline
      .since(t0)
      .filter(
        (e) =>
          e.component === c &&
          e.text.startsWith(text) &&
          secondOf(e, t0) * 1000 >= fromMs &&
          secondOf(e, t0) * 1000 <= toMs,
      );
    if (hits.length > 0)
      throw new Error(
        `expected no ${c} event starting with "${text}" between T+${fromMs / 1000}s and T+${toMs / 1000}s, but found:\n${formatTimeline(hits, t0)}\n\n${recentTimeline(this)}`,
      );
  },
);

/**
 * No timeline event of that component from T+0 on starts with the text.
 */
Then('no {word} event {string} happens', function (this: TerminatingWorld, component: string, text: string) {
  const c = parseComponent(component);
  const hits = this.cluster.timeline.since(this.start).filter((e) => e.component === c && e.text.startsWith(text));
  this.mark({
    rows: hits.map((e) => ({ seq: e.seq, kind: 'mismatch', note: `expected no ${c} event "${text}"` })),
    expected: [],
  });
  if (hits.length > 0)
    throw new Error(
      `expected no ${c} event starting with "${text}", but found:\n${formatTimeline(hits, this.start)}\n\n${recentTimeline(this)}`,
    );
});

/**
 * The last kubectl command (run with `I try to run`) exited non-zero and its error output contains
 * the text.
 */
Then('kubectl fails with {string}', function (this: TerminatingWorld, text: string) {
  const k = this.lastKubectl;
  if (!k) throw new ScenarioError('no kubectl command has been run (use  When I try to run `kubectl …`  first)');
  if (k.exitCode === 0) throw new Error(`kubectl succeeded (exit 0), printing:\n${k.stdout}\n${k.stderr}`);
  if (!k.stderr.includes(text))
    throw new Error(
      `kubectl failed (exit ${k.exitCode}) but its error output does not contain "${text}":\n${k.stderr}`,
    );
});

/**
 * The last kubectl command's output (stdout and stderr) contains the text.
 */
Then('kubectl prints {string}', function (this: TerminatingWorld, text: string) {
  const k = this.lastKubectl;
  if (!k) throw new ScenarioError('no kubectl command has been run (use  When I run `kubectl …`  first)');
  const out = [k.stdout, k.stderr].filter(Boolean).join('\n');
  if (!out.includes(text)) throw new Error(`kubectl did not print "${text}"; it printed:\n${out}`);
});

/**
 * A Kubernetes Event about the pod (the events API, not the timeline) has that reason, e.g.
 * `Killing`, `FailedPreStopHook`, `TaintManagerEviction`.
 */
Then('pod {string} has an event {string}', function (this: TerminatingWorld, name: string, reason: string) {
  requireEvents(this, name, { reason }, (n) => n > 0, 'at least one');
});

/** What a Kubernetes Event must be: its reason, and optionally its type (Normal, Warning) and a text its message contains. */
interface ExpectedEvent {
  reason: string;
  type?: string;
  saying?: string;
}

/** The pod's Events (the events API) as one line each, for failure messages. */
function showEvents(events: readonly { type?: string; reason?: string; message?: string; count?: number }[]): string {
  return (
    events
      .map((e) => `  ${e.type} ${e.reason}: ${e.message}${(e.count ?? 1) > 1 ? ` (×${e.count})` : ''}`)
      .join('\n') || '  none'
  );
}

/**
 * Counts the occurrences of the matching Events about the pod (each Event's `count`: a repeated
 * event is one object with a higher count) and checks the number.
 */
function requireEvents(
  world: TerminatingWorld,
  name: string,
  expected: ExpectedEvent,
  ok: (n: number) => boolean,
  want: string,
): void {
  world.ensureStarted();
  const listed = world.cluster.apiserver.list(
    'events',
    world.podNamespace(name),
    (e) => e.involvedObject?.kind === 'Pod' && e.involvedObject?.name === name,
  );
  const events = listed.ok ? listed.object.items : [];
  const matching = events.filter(
    (e) =>
      e.reason === expected.reason &&
      (expected.type === undefined || e.type === expected.type) &&
      (expected.saying === undefined || (e.message ?? '').includes(expected.saying)),
  );
  const n = matching.reduce((sum, e) => sum + (e.count ?? 1), 0);
  if (ok(n)) return;
  const what = `${expected.type ? `${expected.type} ` : ''}Event ${expected.reason}${expected.saying ? ` saying "${expected.saying}"` : ''}`;
  throw new Error(`pod "${name}" has ${n} ${what}; expected ${want}.\nIts events:\n${showEvents(events)}`);
}

/** An Event about the pod with that reason whose message contains the text, e.g. `has an event "Killing" saying "Stopping container app"`. */
Then(
  'pod {string} has an event {string} saying {string}',
  function (this: TerminatingWorld, name: string, reason: string, saying: string) {
    requireEvents(this, name, { reason, saying }, (n) => n > 0, 'at least one');
  },
);

/** An Event about the pod of that type (`Normal` or `Warning`) and reason, e.g. `has a Warning event "FailedPreStopHook"`. */
Then(
  'pod {string} has a(n) {word} event {string}',
  function (this: TerminatingWorld, name: string, type: string, reason: string) {
    if (type !== 'Normal' && type !== 'Warning')
      throw new ScenarioError(`an Event's type is Normal or Warning, not "${type}"`);
    requireEvents(this, name, { reason, type }, (n) => n > 0, 'at least one');
  },
);

/** Exactly that many occurrences of Events about the pod with that reason (each Event counts its `count`), e.g. one `Killing` per container. */
Then(
  'pod {string} has {int} event(s) {string}',
  function (this: TerminatingWorld, name: string, count: number, reason: string) {
    requireEvents(this, name, { reason }, (n) => n === count, `exactly ${count}`);
  },
);

/** No Event about the pod has that reason. */
Then('pod {string} has no event {string}', function (this: TerminatingWorld, name: string, reason: string) {
  requireEvents(this, name, { reason }, (n) => n === 0, 'none');
});
