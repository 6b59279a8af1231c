import type { Release } from '../foundation/release';
import { PlanError } from './plan-error';

/**
 * The release a planned cluster runs: the control plane's (with its feature gates) and the
 * kubelets that run an older one (version skew). Declared anywhere before the cluster is built.
 */
export class ReleasePlan {
  /** Kubelets that run another release than the control plane, by node (version skew). */
  private readonly kubeletMinors = new Map<string, number>();

  constructor(
    /** The release every component runs unless its kubelet is skewed. */
    public release: Release,
  ) {}

  /**
   * Every component runs `minor`. Kubelets already planned with another release (version skew) are
   * checked against it; on a refusal the plan keeps its release.
   */
  kubernetes(minor: number): void {
    const previous = this.release;
    this.release = wrap(() => previous.withMinor(minor));
    try {
      for (const [node, kubeletMinor] of this.kubeletMinors) this.kubeletRelease(node, kubeletMinor);
    } catch (e) {
      this.release = previous;
      throw e;
    }
  }

  /** A feature gate of every component (kube-apiserver, kube-controller-manager, kubelets), as --feature-gates sets it. */
  featureGate(gate: string, enabled: boolean): void {
    this.release = wrap(() => this.release.withGate(gate, enabled));
    for (const [node, minor] of this.kubeletMinors) this.kubeletRelease(node, minor);
  }

  /** The kubelet of `node` runs `minor` while the control plane runs the planned release. */
  kubelet(node: string, minor: number): void {
    this.kubeletRelease(node, minor);
    this.kubeletMinors.set(node, minor);
  }

  /** The minor release a skewed kubelet runs (undefined: the control plane's). */
  kubeletMinor(node: string): number | undefined {
    return this.kubeletMinors.get(node);
  }

  /**
   * A skewed kubelet's release, with the plan's gates; refused outside the version skew policy
   * (kubelets may be up to three minors older than kube-apiserver, two before v1.28, never newer).
   */
  kubeletRelease(node: string, minor: number): Release {
    const release = wrap(() => this.release.withMinor(minor));
    const control = this.release;
    const maxSkew = control.atLeast(28) ? 3 : 2;
    if (minor > control.minor || control.minor - minor > maxSkew) {
      throw new PlanError(
        `the kubelet on node "${node}" cannot run ${release} with a ${control} control plane: the version skew policy allows kubelets from v1.${control.minor - maxSkew} to ${control} (at most ${maxSkew} minor releases older, never newer)`,
      );
    }
    return release;
  }
}

/** Release errors (unknown or locked gates) as plan errors. */
function wrap<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new PlanError((e as Error).message);
  }
}
