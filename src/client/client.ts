import type { ApiServer, ClientIdentity } from '../apiserver/apiserver';

/** A request that never reached the apiserver (the client's node is cut off from it). */
export class Unreachable extends Error {
  constructor(client: string) {
    super(`${client} cannot reach the apiserver`);
    this.name = 'Unreachable';
  }
}

/**
 * A component's connection to the apiserver: the same API, but only while the network lets the
 * client through (a kubelet on an unreachable node gets `Unreachable` instead of a response).
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
}
