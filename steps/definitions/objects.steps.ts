import { Before, Given, Then, type DataTable } from '@cucumber/cucumber';
import { dirname, resolve } from 'node:path';
import { CAUSES, type CauseName } from '../../src/frontends/explain/causes';
import { explainForward, EXPLAIN_HORIZON_MS } from '../../src/frontends/explain/explain';
import { DumpError, readDumpFiles } from '../../src/planning/restore/dump';
import { formatExplanation } from '../../src/frontends/explain/format';
import { ScenarioError, type TerminatingWorld } from '../support/world';

/** The feature file of each running scenario: `the objects in …` names files relative to it. */
const featureFiles = new WeakMap<TerminatingWorld, string>();

Before(function (this: TerminatingWorld, { pickle }) {
  featureFiles.set(this, pickle.uri);
});

/**
 * A real cluster's state, resumed: what `kubectl get pods,nodes,events,… -o yaml` (or `-o json`)
 * printed, from a file relative to the feature file. The objects keep their uid, timestamps,
 * finalizers, ownerReferences and status; virtual time starts at the newest time they show (so T+0
 * is when they were read, with no warm-up), each node already runs what its pods' status shows,
 * and every assumption (a pod mid-kill, an unreachable node, a volume that does not unmount) is on
 * the timeline. Steps after it change what was assumed (a container's SIGTERM behaviour, a
 * volume's unmount, a node that is unreachable). Comes before any other node or pod.
 */
Given('the objects in {string}', function (this: TerminatingWorld, path: string) {
  const file = resolve(dirname(featureFiles.get(this) ?? '.'), path);
  try {
    this.plan.objects(readDumpFiles([file]));
  } catch (e) {
    if (e instanceof DumpError) throw new ScenarioError(e.message);
    throw e;
  }
});

/**
 * Runs the cluster forward (at most one virtual hour, like `terminating explain`) and checks what
 * held the pod: each row's `cause` (finalizer, webhook, dependents, node-unreachable,
 * containers-running, volume-unmount, nothing) must be one of the explanation's causes, and its
 * `detail` a substring of that cause's detail (the finalizer's, node's, container's or volume's
 * name …). Every cause of the explanation must be listed. A mismatch prints the whole explanation.
 */
Then('what holds pod {string} is:', function (this: TerminatingWorld, name: string, table: DataTable) {
  const [header, ...rows] = table.raw();
  if (header.map((h) => h.trim()).join('|') !== 'cause|detail') throw new ScenarioError(`the table needs the columns | cause | detail |, got | ${header.join(' | ')} |`);
  for (const [cause] of rows) {
    if (!(CAUSES as readonly string[]).includes(cause.trim())) throw new ScenarioError(`unknown cause "${cause}": expected one of ${CAUSES.join(', ')}`);
  }
  const t0 = this.start;
  const pods = explainForward(this.cluster, { t0, horizonMs: EXPLAIN_HORIZON_MS, unmodelled: this.plan.restoredObjects?.unmodelled });
  const matching = pods.filter((p) => p.name === name);
  if (matching.length === 0) throw new ScenarioError(`pod "${name}" is not Terminating and was not deleted within an hour of now (explained: ${pods.map((p) => `"${p.name}"`).join(', ') || 'none'})`);
  if (matching.length > 1) throw new ScenarioError(`${matching.length} pods named "${name}" (namespaces ${matching.map((p) => p.namespace).join(', ')})`);
  const explained = matching[0];
  const text = formatExplanation({ now: new Date(t0).toISOString(), release: String(this.plan.release), horizon: '1h', assumptions: [], pods: [explained] });
  const left = [...explained.causes];
  for (const [cause, detail] of rows) {
    const i = left.findIndex((c) => c.cause === (cause.trim() as CauseName) && c.detail.includes(detail.trim()));
    if (i < 0) throw new ScenarioError(`no cause "${cause.trim()}" with a detail containing "${detail.trim()}" holds pod "${name}":\n${text}`);
    left.splice(i, 1);
  }
  if (left.length > 0) throw new ScenarioError(`pod "${name}" is also held by causes the table does not list (${left.map((c) => c.cause).join(', ')}):\n${text}`);
});
