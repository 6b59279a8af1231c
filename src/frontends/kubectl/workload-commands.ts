import type { ApiServer } from '../../apiserver/apiserver';
import { toTime } from '../../apimachinery/object';
import type { Deployment, ReplicaSet } from '../../apimachinery/types';
import { KUBECTL, type Cluster } from '../../cluster/cluster';
import { POD_TEMPLATE_HASH_LABEL, REVISION_ANNOTATION } from '../../components/controllers/deployment/deployment-util';
import { getControllerOf } from '../../components/controllers/controller-utils';
import { splitCommandLine, UnsupportedKubectlError } from './delete-command';
import type { KubectlResult } from './kubectl';

/** As kubectl.ts's wait limit: without --timeout, one virtual hour. */
const DEFAULT_WAIT_LIMIT_MS = 60 * 60_000;

const SCALE_SOURCE = 'staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go RunScale → scale.ScaleWithRetries';
const ROLLOUT = 'staging/src/k8s.io/kubectl/pkg/cmd/rollout';

/** The kinds `scale` and `rollout` take here, by every name kubectl accepts for them. */
const KINDS: Readonly<Record<string, { resource: 'deployments' | 'replicasets' | 'statefulsets'; printed: string }>> = {
  deployment: { resource: 'deployments', printed: 'deployment.apps' },
  deployments: { resource: 'deployments', printed: 'deployment.apps' },
  deploy: { resource: 'deployments', printed: 'deployment.apps' },
  replicaset: { resource: 'replicasets', printed: 'replicaset.apps' },
  replicasets: { resource: 'replicasets', printed: 'replicaset.apps' },
  rs: { resource: 'replicasets', printed: 'replicaset.apps' },
  statefulset: { resource: 'statefulsets', printed: 'statefulset.apps' },
  statefulsets: { resource: 'statefulsets', printed: 'statefulset.apps' },
  sts: { resource: 'statefulsets', printed: 'statefulset.apps' },
};

/**
 * The upstream function a kubectl command line runs, for its event on the kubectl lane (the same
 * for the built-in kubectl and the real one).
 */
export function kubectlSource(line: string): string {
  const verb = /^\s*kubectl\s+(\S+)(?:\s+(\S+))?/.exec(line);
  if (verb?.[1] === 'scale') return SCALE_SOURCE;
  if (verb?.[1] === 'rollout') return `${ROLLOUT}/rollout_${verb[2] ?? ''}.go`;
  return 'staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go RunDelete';
}

/** Whether the command line is one of these (kubectl scale / kubectl rollout). */
export function isWorkloadCommand(line: string): boolean {
  return /^\s*kubectl\s+(scale|rollout)(\s|$)/.test(line);
}

/** TYPE/NAME or TYPE NAME, and the flags (`--name=value`), from the words after the verb. */
function target(words: string[]): { kind: (typeof KINDS)[string]; name: string; flags: Map<string, string> } {
  const flags = new Map<string, string>();
  const args: string[] = [];
  for (const w of words) {
    if (w.startsWith('--')) {
      const [k, v] = w.slice(2).split('=', 2);
      flags.set(k, v ?? 'true');
    } else args.push(w);
  }
  const [type, name] = args.length === 1 && args[0].includes('/') ? args[0].split('/', 2) : [args[0], args[1]];
  const kind = KINDS[type ?? ''];
  if (!kind || !name)
    throw new UnsupportedKubectlError(
      `this kubectl scales deployments, replicasets and statefulsets and rolls out deployments only: write TYPE/NAME or TYPE NAME (got ${JSON.stringify(args.join(' '))})`,
    );
  return { kind, name, flags };
}

/**
 * The built-in kubectl's `scale` and `rollout restart|status|undo` for Deployments and
 * ReplicaSets, sending what kubectl sends (the reads it makes are not shown):
 * - `scale TYPE/NAME --replicas=N`: a merge PATCH of …/scale `{"spec":{"replicas":N}}`, then
 *   `deployment.apps/NAME scaled`;
 * - `rollout restart deployment/NAME`: a strategic merge PATCH setting the template annotation
 *   `kubectl.kubernetes.io/restartedAt` to now (RFC 3339), then `… restarted`;
 * - `rollout status deployment/NAME`: waits (virtual time) until the rollout is done, printing
 *   what kubectl's DeploymentStatusViewer says while it waits;
 * - `rollout undo deployment/NAME`: the template of the ReplicaSet of the previous revision, its
 *   hash label removed, put back with a JSON patch, then `… rolled back`.
 */
export function runWorkloadCommand(cluster: Cluster, line: string): KubectlResult {
  const words = splitCommandLine(line);
  const out: string[] = [];
  const end = (exitCode: number, stderr = '', requestId?: number): KubectlResult => ({
    exitCode,
    stdout: out.join('\n'),
    stderr,
    requests: [],
    ...(requestId !== undefined && { requestId }),
  });
  const api = cluster.apiserver;
  if (words[1] === 'scale') {
    const { kind, name, flags } = target(words.slice(2));
    cluster.timeline.record('kubectl', line.replace(/^\s*kubectl\s+/, ''), kubectlSource(line), { actor: 'kubectl' });
    const replicas = Number(flags.get('replicas'));
    if (!flags.has('replicas') || !Number.isInteger(replicas) || replicas < 0)
      return end(1, 'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0');
    const r = api.scale(KUBECTL, kind.resource, 'default', name, { patch: 'merge', body: { spec: { replicas } } });
    cluster.flush();
    if (!r.ok) return end(1, `Error from server (${r.status.reason}): ${r.status.message}`, r.requestId);
    out.push(`${kind.printed}/${name} scaled`);
    return end(0, '', r.requestId);
  }
  const sub = words[2];
  const { kind, name, flags } = target(words.slice(3));
  if (kind.resource !== 'deployments') throw new UnsupportedKubectlError('this kubectl rolls out deployments only');
  cluster.timeline.record('kubectl', line.replace(/^\s*kubectl\s+/, ''), kubectlSource(line), { actor: 'kubectl' });
  const got = api.get('deployments', 'default', name);
  if (!got.ok) return end(1, `Error from server (NotFound): deployments.apps "${name}" not found`);
  if (sub === 'restart') {
    const body = {
      spec: {
        template: {
          metadata: {
            annotations: { 'kubectl.kubernetes.io/restartedAt': toTime(cluster.clock.now()).replace('Z', '+00:00') },
          },
        },
      },
    };
    const r = api.patch(KUBECTL, 'deployments', 'default', name, 'strategic', body);
    cluster.flush();
    if (!r.ok) return end(1, `Error from server (${r.status.reason}): ${r.status.message}`, r.requestId);
    out.push(`${kind.printed}/${name} restarted`);
    return end(0, '', r.requestId);
  }
  if (sub === 'undo') return undo(cluster, got.object, kind.printed, out, end);
  if (sub === 'status') {
    const limit =
      cluster.clock.now() + (flags.has('timeout') ? parseSeconds(flags.get('timeout')!) : DEFAULT_WAIT_LIMIT_MS);
    let last = '';
    const done = () => {
      const d = api.get('deployments', 'default', name);
      if (!d.ok) return true;
      const { message, complete } = rolloutStatus(d.object);
      if (message !== last) out.push((last = message));
      return complete;
    };
    if (!cluster.runUntil(done, limit)) return end(1, 'error: timed out waiting for the condition');
    return end(0);
  }
  throw new UnsupportedKubectlError(`kubectl rollout ${sub} is not modelled (restart, status and undo are)`);
}

function parseSeconds(v: string): number {
  const m = /^(\d+)(s|m)$/.exec(v);
  if (!m) throw new UnsupportedKubectlError(`--timeout=${v}: write it as Ns or Nm here`);
  return Number(m[1]) * (m[2] === 'm' ? 60_000 : 1000);
}

/** polymorphichelpers DeploymentStatusViewer.Status: the message kubectl prints and whether it is done. */
export function rolloutStatus(d: Deployment): { message: string; complete: boolean } {
  const name = d.metadata.name;
  const s = d.status ?? {};
  const replicas = d.spec?.replicas ?? 1;
  if ((d.metadata.generation ?? 0) > (s.observedGeneration ?? 0))
    return { message: 'Waiting for deployment spec update to be observed...', complete: false };
  const updated = s.updatedReplicas ?? 0;
  if (updated < replicas)
    return {
      message: `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${replicas} new replicas have been updated...`,
      complete: false,
    };
  if ((s.replicas ?? 0) > updated)
    return {
      message: `Waiting for deployment "${name}" rollout to finish: ${(s.replicas ?? 0) - updated} old replicas are pending termination...`,
      complete: false,
    };
  if ((s.availableReplicas ?? 0) < updated)
    return {
      message: `Waiting for deployment "${name}" rollout to finish: ${s.availableReplicas ?? 0} of ${updated} updated replicas are available...`,
      complete: false,
    };
  return { message: `deployment "${name}" successfully rolled out`, complete: true };
}

/** rollback.go DeploymentRollbacker.Rollback (toRevision 0: the previous revision). */
function undo(
  cluster: Cluster,
  d: Deployment,
  printed: string,
  out: string[],
  end: (code: number, stderr?: string, id?: number) => KubectlResult,
): KubectlResult {
  const api: ApiServer = cluster.apiserver;
  const list = api.list('replicasets', 'default', (rs) => getControllerOf(rs)?.uid === d.metadata.uid);
  const sets: ReplicaSet[] = list.ok ? list.object.items : [];
  const current = Number(d.metadata.annotations?.[REVISION_ANNOTATION] ?? '0');
  const previous = sets
    .filter((rs) => Number(rs.metadata.annotations?.[REVISION_ANNOTATION] ?? '0') < current)
    .sort(
      (a, b) =>
        Number(b.metadata.annotations?.[REVISION_ANNOTATION]) - Number(a.metadata.annotations?.[REVISION_ANNOTATION]),
    )[0];
  if (!previous) return end(1, 'error: no rollout history found for deployment "' + d.metadata.name + '"');
  const template = structuredClone(previous.spec?.template ?? {});
  if (template.metadata?.labels) delete template.metadata.labels[POD_TEMPLATE_HASH_LABEL];
  const r = api.patch(KUBECTL, 'deployments', 'default', d.metadata.name!, 'json', [
    { op: 'replace', path: '/spec/template', value: template },
    { op: 'replace', path: '/metadata/annotations', value: { ...d.metadata.annotations } },
  ]);
  cluster.flush();
  if (!r.ok) return end(1, `error: failed restoring revision 0: ${r.status.message}`, r.requestId);
  out.push(`${printed}/${d.metadata.name} rolled back`);
  return end(0, '', r.requestId);
}
