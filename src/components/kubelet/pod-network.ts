/**
 * The node's pod network as CNI's host-local IPAM plugin keeps it (containernetworking/plugins
 * plugins/ipam/host-local, the bridge/ptp setups of kind and kubeadm): pod IPs come from the
 * node's `spec.podCIDR` (the range the node IPAM controller gave it, src/components/controllers/node-ipam.ts),
 * the first address (.1) is the gateway, and each new sandbox gets the address after the last one
 * handed out (host-local's round robin over `last_reserved_ip`), skipping those in use, wrapping
 * at the end of the range. RunPodSandbox allocates (CNI ADD), StopPodSandbox releases (CNI DEL).
 * It belongs to the machine: the addresses outlive a kubelet restart, like the sandboxes.
 */
export class PodNetwork {
  private base?: number;
  private size = 0;
  private last = 1;
  /** Sandbox → its address (as an offset in the range), and the offsets in use. */
  private readonly inUse = new Map<string, number>();
  private readonly taken = new Set<number>();

  /** The CIDR the kubelet passed on (UpdateRuntimeConfig), e.g. `10.244.1.0/24`; undefined until the node has one. */
  podCIDR?: string;

  /** kubelet.updatePodCIDR → runtime UpdateRuntimeConfig: the range to allocate from. An IPv4 CIDR; a malformed one is refused. */
  configure(cidr: string): void {
    if (cidr === this.podCIDR) return;
    const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
    if (!m || Number(m[5]) > 30)
      throw new Error(`pod CIDR ${JSON.stringify(cidr)} is not an IPv4 range of at least 4 addresses`);
    const ip = m.slice(1, 5).reduce((a, b) => a * 256 + Number(b), 0);
    this.size = 2 ** (32 - Number(m[5]));
    this.base = ip - (ip % this.size);
    this.podCIDR = cidr;
  }

  /** CNI ADD for a sandbox: its address, or undefined when the node has no range yet or the range is full. */
  allocate(sandbox: string): string | undefined {
    if (this.base === undefined) return undefined;
    const held = this.inUse.get(sandbox);
    if (held !== undefined) return this.format(held);
    // Hosts .1 (gateway) to size-2 (the last is broadcast).
    for (let k = 1; k <= this.size - 3; k++) {
      const candidate = ((this.last - 1 + k) % (this.size - 2)) + 1;
      if (candidate === 1 || this.taken.has(candidate)) continue;
      this.last = candidate;
      this.inUse.set(sandbox, candidate);
      this.taken.add(candidate);
      return this.format(candidate);
    }
    return undefined;
  }

  /** CNI DEL: the sandbox's address is free again. */
  release(sandbox: string): void {
    const offset = this.inUse.get(sandbox);
    if (offset === undefined) return;
    this.inUse.delete(sandbox);
    this.taken.delete(offset);
  }

  private format(offset: number): string {
    const n = this.base! + offset;
    return `${Math.floor(n / 2 ** 24) % 256}.${Math.floor(n / 2 ** 16) % 256}.${Math.floor(n / 2 ** 8) % 256}.${n % 256}`;
  }
}
