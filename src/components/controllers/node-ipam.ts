import type { ClientIdentity } from '../../apiserver/apiserver';
import { ControllerBase } from './controller-base';
import type { ControllerContext } from './controller-manager';

/** kube-controller-manager's node IPAM controller, on the generic controller lane. */
const IDENTITY: ClientIdentity = { name: 'node-ipam-controller', component: 'controller' };

/** --cluster-cidr and --node-cidr-mask-size as kind and kubeadm set them: 10.244.0.0/16 cut into /24s. */
export const CLUSTER_CIDR = { first: [10, 244], nodeMaskSize: 24, ranges: 256 } as const;

/**
 * The node IPAM controller with the range allocator (kube-controller-manager
 * `--allocate-node-cidrs`, as kind and kubeadm run it): each Node without a `spec.podCIDR` gets
 * the lowest free /24 of the cluster CIDR (range_allocator.go AllocateOrOccupyCIDR → cidrset
 * AllocateNext), written with one strategic merge PATCH of `spec.podCIDR` and `spec.podCIDRs`
 * (updateCIDRsAllocation → nodeutil.PatchNodeCIDRs); a deleted node's range is free again
 * (ReleaseCIDR). The kubelet then hands the range to its network plugin (kubelet.go updatePodCIDR).
 */
export class NodeIpamController extends ControllerBase {
  /** Node name → index of its /24 in the cluster CIDR. */
  private readonly allocated = new Map<string, number>();

  constructor(ctx: ControllerContext) {
    super(ctx, IDENTITY);
  }

  start(): this {
    this.api.watch('nodes', undefined, {}, (e) => {
      const name = e.object.metadata.name!;
      if (e.type === 'DELETED') this.allocated.delete(name);
      else if (!e.object.spec?.podCIDR && !this.allocated.has(name)) this.allocate(name);
      else if (e.object.spec?.podCIDR) this.occupy(name, e.object.spec.podCIDR);
    });
    return this;
  }

  private allocate(name: string): void {
    const used = new Set(this.allocated.values());
    let index = 0;
    while (used.has(index)) index++;
    // cidrset.AllocateNext fails with ErrCIDRRangeNoCIDRsRemaining: the node stays without a range.
    if (index >= CLUSTER_CIDR.ranges) return;
    this.allocated.set(name, index);
    const cidr = `${CLUSTER_CIDR.first.join('.')}.${index}.0/${CLUSTER_CIDR.nodeMaskSize}`;
    this.client.patch('nodes', undefined, name, 'strategic', { spec: { podCIDR: cidr, podCIDRs: [cidr] } });
  }

  /** A node that already has a range (AllocateOrOccupyCIDR's occupy branch, e.g. after a controller restart): marked used. */
  private occupy(name: string, cidr: string): void {
    const m = /^10\.244\.(\d+)\.0\/24$/.exec(cidr);
    if (m) this.allocated.set(name, Number(m[1]));
  }
}
