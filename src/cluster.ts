import { ApiServer, DEFAULT_APISERVER_OPTIONS, type ApiServerOptions, type ClientIdentity } from './apiserver/apiserver';
import { Clock } from './clock';
import { DEFAULT_NODE_CONFIG, SimNode, type NodeConfig } from './node';
import { Timeline } from './timeline/timeline';

/** The client identities of the people and tools that drive a scenario. */
export const USER: ClientIdentity = { name: 'user', component: 'user' };
export const KUBECTL: ClientIdentity = { name: 'kubectl', component: 'kubectl' };
export const CONTROLLER: ClientIdentity = { name: 'controller', component: 'controller' };

export interface ClusterOptions {
  apiserver: ApiServerOptions;
  node: NodeConfig;
}

/**
 * One simulated cluster: a virtual clock, a timeline, kube-apiserver over etcd, and nodes with
 * their kubelets. Every component reaches the apiserver only through its request methods and
 * watches.
 */
export class Cluster {
  readonly clock = new Clock();
  readonly timeline = new Timeline(this.clock);
  readonly apiserver: ApiServer;
  readonly nodes = new Map<string, SimNode>();
  private readonly options: ClusterOptions;

  constructor(options: Partial<ClusterOptions> = {}) {
    this.options = { apiserver: options.apiserver ?? DEFAULT_APISERVER_OPTIONS, node: options.node ?? DEFAULT_NODE_CONFIG };
    this.apiserver = new ApiServer(this.clock, this.timeline, this.options.apiserver);
  }

  addNode(name: string): SimNode {
    if (this.nodes.has(name)) throw new Error(`node "${name}" already exists`);
    const node = new SimNode(this.clock, this.timeline, this.apiserver, name, this.options.node);
    this.nodes.set(name, node);
    return node;
  }

  node(name: string): SimNode {
    const node = this.nodes.get(name);
    if (!node) throw new Error(`unknown node "${name}"; nodes in this scenario: ${[...this.nodes.keys()].map((n) => `"${n}"`).join(', ') || 'none'}`);
    return node;
  }

  /** Run everything due now (zero-delay hops such as watch delivery), without advancing time. */
  flush(): void {
    this.clock.tick(0);
  }

  /** Advance virtual time, running everything that falls due. */
  advance(ms: number): void {
    this.clock.tick(ms);
  }
}
