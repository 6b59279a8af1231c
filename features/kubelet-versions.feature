@versions
Feature: What the kubelet does differently from one Kubernetes release to the next
  The same deletion, run as different releases side by side: each Examples row is a release.

  Scenario Outline: a deleted pod leaves the API Failed from v1.27, still Running before (<release>)
    # V20: status_manager.go canBeDeleted asked PodResourcesAreReclaimed up to v1.26 (no phase),
    # and generateAPIPodStatus followed the restart policy to the end; #115331 (v1.27).
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                                  | value   |
      | /status/phase                                         | <phase> |
      | /status/containerStatuses/0/state/terminated/exitCode | 143     |

    Examples:
      | release | phase     |
      | v1.26   | "Running" |
      | v1.27   | "Failed"  |
      | v1.33   | "Failed"  |

  Scenario Outline: a 10s preStop hook comes on top of the grace period before v1.28 (<release>)
    # V21: kuberuntime_container.go killContainer applied the pod worker's override after the hook
    # up to v1.27, so StopContainer got the whole 30s again; #115835 (v1.28).
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" has a preStop hook that takes 10s
    And container "app" of pod "web" ignores SIGTERM
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And these events happen in order:
      | at    | component | event       |
      | T+0s  | runtime   | preStop app |
      | T+10s | runtime   | SIGTERM app |
      | <at>  | runtime   | SIGKILL app |

    Examples:
      | release | at    |
      | v1.27   | T+40s |
      | v1.28   | T+30s |

  Scenario Outline: a force delete stops the containers in 2s from v1.31, in the spec's 30s before (<release>)
    # V22: pod_workers.go calculateEffectiveGracePeriod took an API grace of 0 for "unset" and used
    # terminationGracePeriodSeconds up to v1.30; #124063 (v1.31): 1s, so StopContainer(2).
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" ignores SIGTERM
    When I run `kubectl delete pod web --grace-period=0 --force`
    And 1m pass
    Then pod "web" is gone
    And these events happen in order:
      | at   | component | event                                   |
      | T+0s | kubelet   | SyncTerminatingPod pods/web gracePeriod=<grace> |
      | T+0s | runtime   | SIGTERM app                             |
      | <at> | runtime   | SIGKILL app                             |

    Examples:
      | release | grace | at    |
      | v1.30   | 30    | T+30s |
      | v1.31   | 1     | T+2s  |
