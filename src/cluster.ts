import { ApiServer, DEFAULT_APISERVER_OPTIONS, type ApiServerOptions, type ClientIdentity } from './apiserver/apiserver';
import { Clock } from './clock';
import { Timeline } from './timeline/timeline';

/** The client identities of the people and tools that drive a scenario. */
export const USER: ClientIdentity = { name: 'user', component: 'user' };
export const KUBECTL: ClientIdentity = { name: 'kubectl', component: 'kubectl' };
export const CONTROLLER: ClientIdentity = { name: 'controller', component: 'controller' };

export interface ClusterOptions {
  apiserver: ApiServerOptions;
}

/**
 * One simulated cluster: a virtual clock, a timeline, kube-apiserver over etcd. Every component
 * reaches the apiserver only through its request methods and watches.
 */
export class Cluster {
  readonly clock = new Clock();
  readonly timeline = new Timeline(this.clock);
  readonly apiserver: ApiServer;

  constructor(options: Partial<ClusterOptions> = {}) {
    this.apiserver = new ApiServer(this.clock, this.timeline, options.apiserver ?? DEFAULT_APISERVER_OPTIONS);
  }
}
