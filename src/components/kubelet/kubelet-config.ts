import { DEFAULT_RELEASE, type Release } from '../../foundation/release';
import { DEFAULT_EVICTION_CONFIG, type EvictionConfig } from './eviction/helpers';

/** The kubelet's timing constants (each named after its upstream constant or flag); a scenario may change them. */
export interface KubeletConfig {
  /** genericPlegRelistPeriod: the pod cache is refreshed every second (K18). */
  plegRelistPeriodMs: number;
  /** syncLoop's syncTicker (K19). */
  syncPeriodMs: number;
  /** housekeepingPeriod (K43). */
  housekeepingPeriodMs: number;
  /** status manager syncPeriod (K35). */
  statusSyncPeriodMs: number;
  /** pod worker backOffPeriod after a failed sync (K19). */
  backOffPeriodMs: number;
  /** --sync-frequency: a pod whose sync succeeded is synced again after this (K19). */
  syncFrequencyMs: number;
  /** ContainerGCPeriod: exited containers and sandboxes of deleted pods are removed (K41). */
  containerGCPeriodMs: number;
  /** SyncTerminatingRuntimePod: grace for runtime pods the kubelet has no config for (K30). */
  orphanKillGracePeriodSeconds: number;
  /** shutdownGracePeriod (graceful node shutdown, K51): 0 turns the feature off (upstream default). */
  shutdownGracePeriodSeconds: number;
  /** shutdownGracePeriodCriticalPods: the part of shutdownGracePeriod kept for critical pods. */
  shutdownGracePeriodCriticalPodsSeconds: number;
  /**
   * How long the machine takes to power off after the shutdown manager releases its inhibitor
   * lock (systemd stopping the remaining units): a simulation assumption, not a kubelet setting.
   */
  shutdownPowerOffDelayMs: number;
  /** The eviction manager's thresholds and periods (KubeletConfiguration eviction*, K71). */
  eviction: EvictionConfig;
  /** nodeStatusUpdateFrequency: the node status (its conditions) is reported every 10 s (K74). */
  nodeStatusUpdateFrequencyMs: number;
  /** The kubelet's release and feature gates (a node may run another release than the control plane). */
  release: Release;
  /** --node-ip: the node's InternalIP, which the kubelet registers and reports as each pod's hostIP. */
  nodeIP: string;
}

export const DEFAULT_KUBELET_CONFIG: KubeletConfig = {
  plegRelistPeriodMs: 1000,
  syncPeriodMs: 1000,
  housekeepingPeriodMs: 2000,
  statusSyncPeriodMs: 10_000,
  backOffPeriodMs: 10_000,
  syncFrequencyMs: 60_000,
  containerGCPeriodMs: 60_000,
  orphanKillGracePeriodSeconds: 1,
  shutdownGracePeriodSeconds: 0,
  shutdownGracePeriodCriticalPodsSeconds: 0,
  shutdownPowerOffDelayMs: 2000,
  eviction: DEFAULT_EVICTION_CONFIG,
  nodeStatusUpdateFrequencyMs: 10_000,
  release: DEFAULT_RELEASE,
  nodeIP: '10.0.0.1',
};
