@drain @kubectl-polls
Feature: A drain that waits for a PodDisruptionBudget
  `kubectl drain` evicts every pod of the node; the eviction API asks the pod's budget first (D5).
  With two replicas and minAvailable 1, the first eviction spends the only disruption allowed; the
  second is refused with 429 and kubectl retries it every 5 s. The Deployment's ReplicaSet replaces
  the evicted pod at once, the scheduler puts the replacement on the other node (node-1 is
  cordoned), and once it is Ready (its readiness probe starts after 10 s) the disruption
  controller allows one disruption again (D2): the next retry goes through.

  Scenario: the second eviction waits until the replacement is Ready on another node
    Given a node "node-1"
    And a deployment "web" with 2 replicas with:
      """
      spec:
        template:
          spec:
            containers:
              - name: app
                readinessProbe:
                  httpGet: {path: /ready, port: 8080}
                  initialDelaySeconds: 10
                  periodSeconds: 5
      """
    And a pod disruption budget "web-pdb" with minAvailable 1 selecting "app=web"
    # node-2 joins once time runs: the Deployment's two pods were both placed on node-1.
    When 1s passes
    And a node "node-2"
    And I run `kubectl drain node-1 --ignore-daemonsets --timeout=120s`
    Then kubectl prints "Cannot evict pod as it would violate the pod's disruption budget."
    And kubectl prints "node/node-1 drained"
    # In order, without times: the real kubectl (the real-kubectl profile) retries on its own clock.
    And these events happen in order:
      | component  | event                                                                   |
      | kubectl    | drain node-1 --ignore-daemonsets --timeout=120s                         |
      | apiserver  | CREATE pods/web-                                                        |
      | disruption | pdb web-pdb allows 0 (currentHealthy=1 desiredHealthy=1 expectedPods=2) |
      | replicaset | creates pod web-                                                        |
      | scheduler  | schedules pods/web-                                                     |
      | disruption | pdb web-pdb allows 1 (currentHealthy=2 desiredHealthy=1 expectedPods=2) |
      | apiserver  | CREATE pods/web-                                                        |
