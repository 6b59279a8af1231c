@drain @kubectl-polls
Feature: Draining a node with kubectl drain
  `kubectl drain NODE` (K80, K81, K82) first cordons the node (spec.unschedulable, which the node
  lifecycle controller turns into the node.kubernetes.io/unschedulable:NoSchedule taint), then
  lists the node's pods and filters them: a pod without a controller needs --force, one with an
  emptyDir volume --delete-emptydir-data, a DaemonSet's pod --ignore-daemonsets. Each pod left is
  evicted (POST pods/NAME/eviction; with --disable-eviction a plain DELETE) with --grace-period if
  given, and kubectl polls it with a GET every second until it is gone. A 429 from the eviction
  API is retried every 5 s; --timeout bounds the whole wait. The step waits on the virtual clock.

  Background:
    Given a node "node-1"
    And a replicaset "frontend" owning pods "frontend-1" and "frontend-2"

  Scenario: a drain evicts the node's pods and leaves it cordoned and tainted
    When I run `kubectl drain node-1 --ignore-daemonsets --grace-period=10`
    Then kubectl prints "node/node-1 cordoned"
    And kubectl prints "evicting pod default/frontend-1"
    And kubectl prints "pod/frontend-2 evicted"
    And kubectl prints "node/node-1 drained"
    # Each pod is evicted by a goroutine of its own (the real kubectl's order is the Go scheduler's): one table per pod.
    And these events happen in order:
      | at    | component     | event                                                               |
      | T+0s  | apiserver     | PATCH nodes/node-1                                                  |
      | T+0s  | nodelifecycle | node node-1 taints +node.kubernetes.io/unschedulable:NoSchedule     |
      | T+0s  | apiserver     | CREATE pods/frontend-1/eviction gracePeriodSeconds=10               |
      | T+0s  | runtime       | SIGTERM app pods/frontend-1                                         |
      | T+1s  | status        | DELETE pods/frontend-1                                              |
    And these events happen in order:
      | at    | component     | event                                                               |
      | T+0s  | apiserver     | CREATE pods/frontend-2/eviction gracePeriodSeconds=10               |
      | T+0s  | runtime       | SIGTERM app pods/frontend-2                                         |
      | T+1s  | status        | DELETE pods/frontend-2                                              |
    And pod "frontend-1" is gone
    And pod "frontend-2" is gone
    And node "node-1" has the taint "node.kubernetes.io/unschedulable" with effect "NoSchedule"

  Scenario: a pod without a controller stops the drain unless --force is given
    Given a pod "web" running on node "node-1"
    When I try to run `kubectl drain node-1`
    Then kubectl fails with "cannot delete Pods that declare no controller (use --force to override): default/web"
    And kubectl fails with "There are pending nodes to be drained:"
    And pod "web" exists
    And pod "frontend-1" exists
    And node "node-1" has the taint "node.kubernetes.io/unschedulable" with effect "NoSchedule"

  Scenario: kubectl v1.30 to v1.35 say "cannot delete" twice
    # V49: filters.go's unmanagedFatal began with "cannot delete", which errors() adds again (until v1.36).
    Given Kubernetes v1.35
    And a pod "web" running on node "node-1"
    When I try to run `kubectl drain node-1`
    Then kubectl fails with "cannot delete cannot delete Pods that declare no controller (use --force to override): default/web"
    And pod "web" exists

  Scenario: --force evicts it too, with a warning; --pod-selector narrows the drain
    Given a pod "web" running on node "node-1"
    When I run `kubectl drain node-1 --force --pod-selector=app!=frontend`
    Then kubectl prints "Warning: deleting Pods that declare no controller: default/web"
    And pod "web" is gone
    And pod "frontend-1" exists

  Scenario: local data needs --delete-emptydir-data
    Given a pod "cache" running on node "node-1" with:
      """
      spec:
        volumes:
          - name: scratch
            emptyDir: {}
      """
    And a replicaset "cache" with:
      """
      spec:
        replicas: 1
      """
    And pod "cache" is owned by replicaset "cache"
    When I try to run `kubectl drain node-1`
    Then kubectl fails with "cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache"
    And pod "frontend-1" exists
    # The filters run in turn while each lets the pod go, and the last one gives the verdict: the
    # pod has a controller, so the local-storage warning is not printed (upstream's filterPods).
    When I run `kubectl drain node-1 --delete-emptydir-data`
    Then kubectl prints "pod/cache evicted"
    And pod "cache" is gone

  Scenario: --disable-eviction deletes the pods instead of evicting them
    When I run `kubectl drain node-1 --disable-eviction --grace-period=5`
    Then kubectl prints "pod/frontend-1 deleted"
    And these events happen in order:
      | component | event                                    |
      | apiserver | DELETE pods/frontend-1 gracePeriodSeconds=5 |
      | apiserver | DELETE pods/frontend-2 gracePeriodSeconds=5 |
    And no apiserver event "CREATE pods/frontend-1/eviction" happens

  @built-in-kubectl-only
  Scenario: --timeout gives up on a pod that a finalizer holds
    # The real kubectl's --timeout is wall time, while the virtual clock jumps: only the built-in kubectl can show this.
    Given a pod "held" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """
    When I try to run `kubectl drain node-1 --force --timeout=30s`
    Then kubectl fails with "error when waiting for pod \"held\" in namespace \"default\" to terminate: context deadline exceeded"
    And kubectl fails with "There are pending pods in node \"node-1\" when an error occurred"
    And pod "frontend-1" is gone

  Scenario: cordoning by hand taints the node; uncordoning lifts it
    When node "node-1" is cordoned
    Then node "node-1" has the taint "node.kubernetes.io/unschedulable" with effect "NoSchedule"
    When node "node-1" is uncordoned
    Then node "node-1" has no taint "node.kubernetes.io/unschedulable"
    And pod "frontend-1" exists
