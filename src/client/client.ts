import type {
  ApiResponse,
  ApiServer,
  ClientIdentity,
  DeleteResponseBody,
  Resource,
  ResourceType,
  WriteOptions,
} from '../apiserver/apiserver';
import type { DeleteOptions, Pod } from '../apimachinery/types';
import { ErrorWithOptionalStack } from '../apimachinery/errors';

/** A PATCH's content type (merge, strategic, json), as the apiserver's patch verb takes it. */
type PatchType = Parameters<ApiServer['patch']>[4];

/**
 * A request that never reached the apiserver (the client's node is cut off from it). Built without
 * a stack trace: every caller catches it (a kubelet cut off meets one at each lease renewal and
 * status sync), and capturing the stack was most of its cost.
 */
export class Unreachable extends ErrorWithOptionalStack {
  constructor(client: string) {
    super(`${client} cannot reach the apiserver`, false);
    this.name = 'Unreachable';
  }
}

/**
 * A component's connection to the apiserver: the same API, but only while the network lets the
 * client through (a kubelet on an unreachable node gets `Unreachable` instead of a response).
 * Its writing verbs carry the client's identity, as a clientset built for one user agent does
 * (client-go rest.Config.UserAgent; kube-controller-manager's ClientBuilder.ClientOrDie(name)
 * gives each controller one bound to its own service account).
 */
export class ApiClient {
  constructor(
    readonly api: ApiServer,
    readonly identity: ClientIdentity,
    readonly connected: () => boolean = () => true,
  ) {}

  /** The apiserver, if the client can reach it now; throws Unreachable otherwise. */
  get server(): ApiServer {
    if (!this.connected()) throw new Unreachable(this.identity.name);
    return this.api;
  }

  // The writing verbs of the apiserver, as this client: each sends the client's identity.

  create<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    obj: ResourceType[R],
    opts?: WriteOptions,
  ): ApiResponse<ResourceType[R]> {
    return this.server.create(this.identity, resource, namespace, obj, opts);
  }

  update<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    obj: ResourceType[R],
    opts?: { subresource?: 'status' | 'finalize' } & WriteOptions,
  ): ApiResponse<ResourceType[R]> {
    return this.server.update(this.identity, resource, namespace, obj, opts);
  }

  patch<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    name: string,
    type: PatchType,
    body: unknown,
    opts?: { subresource?: 'status' } & WriteOptions,
  ): ApiResponse<ResourceType[R]> {
    return this.server.patch(this.identity, resource, namespace, name, type, body, opts);
  }

  /** Server-side apply of a Pod's status (the pods/status subresource). */
  applyStatus(
    namespace: string,
    name: string,
    body: unknown,
    opts: { fieldManager: string; force: true },
  ): ApiResponse<Pod> {
    return this.server.applyStatus(this.identity, namespace, name, body, opts);
  }

  delete<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    name: string,
    options?: DeleteOptions,
  ): ApiResponse<DeleteResponseBody<R>> {
    return this.server.delete(this.identity, resource, namespace, name, options);
  }

  deleteCollection<R extends Resource>(
    resource: R,
    namespace: string | undefined,
    options: DeleteOptions,
  ): ApiResponse<ResourceType[R][]> {
    return this.server.deleteCollection(this.identity, resource, namespace, options);
  }
}
