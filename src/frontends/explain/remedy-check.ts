import type { ApiResponse } from '../../apiserver/apiserver';
import type { Node } from '../../apimachinery/types';
import { KUBECTL, type Cluster } from '../../cluster/cluster';
import type { Remedy } from './causes';
import type { PodExplanation } from './explain';

/**
 * X17 — remedies checked by running them. Each remedy explain prints for a pod still held at the
 * end of the run is tried in a fork of the run: the same objects resumed again, the remedy's
 * command sent at T+0, the cluster run forward. A remedy that does not release the pod alone is
 * tried again followed by each remedy of another cause, then preceded by it, so that explain can
 * say what else must be done and in which order. Only explain's own commands that change the
 * cluster are tried (a patch, a delete, a taint); reads, dry runs, edits and what acts on a
 * machine (ssh) are not, and say so.
 */

/** What one command of explain's asks of the apiserver, or why it is not tried. */
type Action = { run: (cluster: Cluster) => ApiResponse<unknown> } | { skip: string };

const quoted = (s: string): unknown => JSON.parse(s);

/** The request a remedy's command sends (kubectl's, as the built-in kubectl would send it); the forms explain itself prints. */
export function actionOf(command: string): Action {
  let m: RegExpExecArray | null;
  if (/--dry-run/.test(command) || /^kubectl (get|wait) /.test(command))
    return { skip: 'changes nothing (a read or a dry run)' };
  if (/^kubectl edit /.test(command)) return { skip: "an edit: what to change is the user's" };
  if (!command.startsWith('kubectl ')) return { skip: 'acts on a machine, outside the API' };
  if ((m = /^kubectl patch pod (\S+) -n (\S+) --type=(json|merge) -p '(.*)'$/.exec(command))) {
    const [, name, ns, type, body] = m;
    return { run: (c) => c.apiserver.patch(KUBECTL, 'pods', ns, name, type as 'json' | 'merge', quoted(body)) };
  }
  if ((m = /^kubectl patch validatingadmissionpolicybinding (\S+) --type=merge -p '(.*)'$/.exec(command))) {
    const [, name, body] = m;
    return {
      run: (c) =>
        c.apiserver.patch(KUBECTL, 'validatingadmissionpolicybindings', undefined, name, 'merge', quoted(body)),
    };
  }
  if ((m = /^kubectl delete pod (\S+) -n (\S+) --grace-period=0 --force$/.exec(command))) {
    const [, name, ns] = m;
    return { run: (c) => c.apiserver.delete(KUBECTL, 'pods', ns, name, { gracePeriodSeconds: 0 }) };
  }
  if (
    (m =
      /^kubectl delete (node|validatingadmissionpolicybinding|validatingwebhookconfiguration|mutatingwebhookconfiguration) (\S+)$/.exec(
        command,
      ))
  ) {
    const [, kind, name] = m;
    const resource = (
      {
        node: 'nodes',
        validatingadmissionpolicybinding: 'validatingadmissionpolicybindings',
        validatingwebhookconfiguration: 'validatingwebhookconfigurations',
        mutatingwebhookconfiguration: 'mutatingwebhookconfigurations',
      } as const
    )[kind as 'node'];
    return { run: (c) => c.apiserver.delete(KUBECTL, resource, undefined, name, {}) };
  }
  if ((m = /^kubectl taint node (\S+) ([^=\s]+)=([^:\s]*):(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(command))) {
    const [, name, key, value, effect] = m;
    // kubectl taint: GET the node, then a strategic merge patch of spec.taints with the taint added (taint.go).
    return {
      run: (c) => {
        const got = c.apiserver.get('nodes', undefined, name);
        const taints = got.ok ? ((got.object as Node).spec?.taints ?? []) : [];
        return c.apiserver.patch(KUBECTL, 'nodes', undefined, name, 'merge', {
          spec: { taints: [...taints, { key, value, effect, timeAdded: new Date(c.clock.now()).toISOString() }] },
        });
      },
    };
  }
  return { skip: 'not a command explain can try' };
}

export interface ForkOptions {
  /** A new cluster resumed from the same objects, at T+0 (not yet run). */
  fork: () => Cluster;
  horizonMs: number;
  /** For a pod the run contradicts (X16): the step that makes its top suspect explicit in each fork. */
  suspect?: string;
}

/** Sends the remedies' commands in order at T+0 of a fork; whether the pod (that uid) is gone within the horizon, and the first refusal. */
function tryInFork(
  pod: PodExplanation,
  steps: readonly Remedy[],
  options: ForkOptions,
): { released: boolean; refused?: string } {
  const cluster = options.fork();
  const t0 = cluster.clock.now();
  let refused: string | undefined;
  for (const r of steps) {
    const action = actionOf(r.command);
    if ('skip' in action) continue;
    const response = action.run(cluster);
    if (!response.ok && refused === undefined) refused = `${r.command.split(' -p ')[0]}: ${response.status.message}`;
  }
  const gone = () => {
    const got = cluster.apiserver.get('pods', pod.namespace, pod.name);
    return !got.ok || got.object.metadata.uid !== pod.uid;
  };
  cluster.runUntil(gone, t0 + options.horizonMs);
  return { released: gone(), refused };
}

/** X17 — fills in `checked` on every remedy of a pod still held at the end of the run. */
export function checkRemedies(pod: PodExplanation, options: ForkOptions): void {
  if (pod.contradiction !== undefined && options.suspect === undefined) {
    for (const r of pod.causes.flatMap((c) => c.remedies))
      r.checked = 'not tried in the run: no step can make a suspect of this pod explicit';
    return;
  }
  if (!pod.stuck && pod.contradiction === undefined) return;
  // In a fork where the suspect holds the pod, what releases it (the forks' results are relative to that suspect).
  const under = options.suspect !== undefined ? `with the top suspect made explicit (${options.suspect}), ` : '';
  const runnable = pod.causes.flatMap((c, ci) =>
    c.remedies.filter((r) => !('skip' in actionOf(r.command))).map((r) => ({ r, ci })),
  );
  const alone = new Map(runnable.map(({ r }) => [r, tryInFork(pod, [r], options)]));
  // Another cause's remedy is what else must be done only if it does not release the pod by itself.
  const partial = runnable.filter(({ r }) => !alone.get(r)!.released);
  for (const [ci, cause] of pod.causes.entries()) {
    for (const remedy of cause.remedies) {
      const action = actionOf(remedy.command);
      if ('skip' in action) {
        remedy.checked = `not tried in the run: ${action.skip}`;
        continue;
      }
      const result = alone.get(remedy)!;
      if (result.released) {
        remedy.checked = `${under}tried in the run: it releases the pod`;
        continue;
      }
      const why = result.refused ? ` (refused: ${result.refused})` : '';
      // What else must be done: a remedy of another cause, after this one or before it.
      const others = partial.filter((o) => o.ci !== ci);
      const after = others.find((o) => tryInFork(pod, [remedy, o.r], options).released);
      if (after) {
        remedy.checked = `${under}tried in the run: alone it does not release the pod${why}; then also ${after.r.action} (${pod.causes[after.ci].cause}): both, in this order, release it`;
        continue;
      }
      const before = others.find((o) => tryInFork(pod, [o.r, remedy], options).released);
      const released = runnable.filter((o) => alone.get(o.r)!.released).map((o) => o.r.action);
      remedy.checked = before
        ? `${under}tried in the run: alone it does not release the pod${why}; first ${before.r.action} (${pod.causes[before.ci].cause}), then this: both, in this order, release it`
        : `${under}tried in the run: it does not release the pod${why}${released.length > 0 ? `; what does: ${released.join('; ')}` : ', alone or with one remedy of another cause'}`;
    }
  }
}
