Feature: DaemonSet pods stay through taint eviction
  The DaemonSet controller gives its pods tolerations of the not-ready and unreachable NoExecute
  taints without tolerationSeconds (pkg/controller/daemon/util AddOrUpdateDaemonPodTolerations),
  so the DefaultTolerationSeconds admission plugin adds no 300 s toleration to them: when their
  node is lost, taint eviction deletes every other pod after five minutes and leaves them. (W62)

  Scenario: A node is lost: the plain pod is evicted after 300 s, the DaemonSet's pod is not
    Given a node "node-1"
    And a daemonset "agent"
    And a pod "web" running on node "node-1"
    When node "node-1" becomes unreachable
    And 6m pass
    Then pod "web" is terminating
    And the pod of daemonset "agent" on node "node-1" is not terminating
    And these events happen in order:
      | component     | event                                                          |
      | nodelifecycle | node node-1 tainted node.kubernetes.io/unreachable:NoExecute   |
      | nodelifecycle | eviction of pods/web scheduled in 300s                         |
      | nodelifecycle | taint eviction pods/web                                        |
    And no nodelifecycle event "eviction of pods/agent-" happens
    And no nodelifecycle event "taint eviction pods/agent-" happens
    And no daemonset event "daemonsets/agent removes its pod" happens
