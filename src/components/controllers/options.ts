import type { Release } from '../../foundation/release';

/** What every kube-controller-manager controller is told at construction. */
export interface ControllerOptions {
  /** The kube-controller-manager release modelled (and its feature gates). */
  release: Release;
}
