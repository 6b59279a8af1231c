import { badRequest } from '../../../apimachinery/errors';
import { unwrap, type RequestScope } from './scope';

/**
 * R97 — pods/log and pods/exec (pkg/registry/core/pod/rest: LogREST, ExecREST), which upstream
 * proxies to the kubelet of the pod's node: the simulated kubelet runs no processes, so there is
 * no log to read and no shell to attach. After the same checks upstream makes first (the pod
 * exists: 404 otherwise; a named container is one of the pod's), the answer is a 400 BadRequest
 * Status saying so, the shape LogREST gives a container that cannot be read (e.g. `container
 * "app" in pod "web" is waiting to start`).
 */
function podStream(scope: RequestScope, what: string): void {
  const { object: pod } = unwrap(scope.api.get('pods', scope.info.namespace, scope.info.name));
  const containers = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name);
  const asked = scope.url.searchParams.get('container') ?? undefined;
  const name = pod.metadata.name ?? scope.info.name;
  if (asked !== undefined && !containers.includes(asked))
    throw badRequest(`container ${asked} is not valid for pod ${name}`);
  const container = asked ?? pod.spec?.containers[0]?.name ?? '';
  throw badRequest(
    `container "${container}" in pod "${name}" ${what}: the simulated containers run no processes (terminating models their lifecycle only)`,
  );
}

/** pods/log (LogREST). */
export const podLog = (scope: RequestScope): void => podStream(scope, 'has no logs');

/** pods/exec (ExecREST). */
export const podExec = (scope: RequestScope): void => podStream(scope, 'has no shell to exec into');
