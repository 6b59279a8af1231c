import type { Cluster } from '../cluster';
import { KUBECTL } from '../cluster';
import type { Release } from '../release';
import { KubectlError, notFoundMessage, parseKubectlDelete, waitTimeoutMessage, type KubectlDeleteCommand } from './delete-command';

/** What a kubectl invocation printed and how it ended. */
export interface KubectlResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** The apiserver request id of the DELETE it sent ("the last request"), if it sent one. */
  requestId?: number;
  /** Why a wait did not end, when it did not (what still blocks). */
  blockers?: string[];
}

/** What kubectl is told besides its command line. */
export interface KubectlOptions {
  /** The kubectl release modelled (by default the cluster's). */
  release: Release;
}

/** When no --timeout is given, the simulation stops waiting after one virtual hour. */
export const DEFAULT_WAIT_LIMIT_MS = 60 * 60_000;

const SOURCE = 'staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go';

/**
 * Runs one `kubectl delete …` line against the cluster as kubectl v1.32 would: the DELETE with the
 * body kubectl builds, its output, and — unless --wait=false — the wait until the object (that uid)
 * is gone: GET, LIST, then WATCH, on the virtual clock. Throws UnsupportedKubectlError for lines
 * the simulation does not model.
 */
export function runKubectl(cluster: Cluster, line: string, options: KubectlOptions = { release: cluster.release }): KubectlResult {
  cluster.timeline.record('kubectl', line.replace(/^\s*kubectl\s+/, ''), `${SOURCE} RunDelete`, { actor: 'kubectl' });
  let cmd: KubectlDeleteCommand;
  try {
    cmd = parseKubectlDelete(line, options.release);
  } catch (e) {
    if (e instanceof KubectlError) return { exitCode: 1, stdout: '', stderr: [...e.warnings, e.message].join('\n') };
    throw e;
  }
  const stderr = [...cmd.warnings];
  if (cmd.clientDryRun) return { exitCode: 0, stdout: cmd.successMessage, stderr: stderr.join('\n') };

  const api = cluster.apiserver;
  const res = api.delete(KUBECTL, cmd.resource, cmd.namespace, cmd.name, cmd.body);
  if (!res.ok) {
    if (res.code === 404 && cmd.ignoreNotFound) return { exitCode: 0, stdout: '', stderr: stderr.join('\n'), requestId: res.requestId };
    stderr.push(res.code === 404 ? notFoundMessage(cmd) : `Error from server (${res.status.reason}): ${res.status.message}`);
    return { exitCode: 1, stdout: '', stderr: stderr.join('\n'), requestId: res.requestId };
  }
  const result: KubectlResult = { exitCode: 0, stdout: cmd.successMessage, stderr: stderr.join('\n'), requestId: res.requestId };
  if (!cmd.wait) return result;

  // cmd/delete waitForDeletion → cmd/wait: GET, then LIST + WATCH from its resourceVersion, until that uid is gone.
  const uid = (res.object as { metadata: { uid?: string } }).metadata.uid;
  let gone = false;
  const check = (obj: { metadata: { uid?: string } } | undefined) => {
    if (!obj || obj.metadata.uid !== uid) gone = true;
  };
  const got = api.get(cmd.resource, cmd.namespace, cmd.name);
  check(got.ok ? got.object : undefined);
  if (!gone) {
    const list = api.list(cmd.resource, cmd.namespace, (o) => o.metadata.name === cmd.name);
    if (list.ok) {
      check(list.object.items[0]);
      const w = api.watch(cmd.resource, cmd.namespace, { resourceVersion: list.object.resourceVersion, matches: (o) => o.metadata.name === cmd.name }, (e) =>
        check(e.type === 'DELETED' ? undefined : e.object),
      );
      cluster.timeline.record('kubectl', `waiting for ${cmd.resource}/${cmd.name} to be deleted`, 'staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go IsDeleted', { actor: 'kubectl' });
      const limit = cmd.timeoutMs ?? DEFAULT_WAIT_LIMIT_MS;
      cluster.runUntil(() => gone, cluster.clock.now() + limit);
      if (w.ok) w.object.stop();
      if (!gone) {
        const blockers = cluster.blockers();
        const message = cmd.timeoutMs !== undefined ? waitTimeoutMessage(cmd) : `kubectl was still waiting for ${cmd.resource}/${cmd.name} to be deleted after one virtual hour (no --timeout given)`;
        return { ...result, exitCode: 1, stderr: [...stderr, message].join('\n'), blockers };
      }
    }
  }
  cluster.timeline.record('kubectl', `${cmd.resource}/${cmd.name} is gone`, 'staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go IsDeleted', { actor: 'kubectl' });
  return result;
}
