Feature: PodDisruptionBudgets: evictions that wait for replacements

  The eviction API (what `kubectl drain` calls for each pod) asks the PodDisruptionBudget that
  selects a pod before it deletes it. The disruption controller keeps the budget's status: how
  many selected pods are ready (currentHealthy), how many must stay ready (desiredHealthy), and
  so how many evictions it allows now (disruptionsAllowed). An eviction spends one, and is
  refused with 429 TooManyRequests when none is left; the client retries later (rules D1, D2,
  D5 and D6).

  Background:
    Given a node "node-1"
    And a pod "web-1" running on node "node-1" with:
      """
      metadata:
        labels: {app: web}
      """
    And a pod "web-2" running on node "node-1" with:
      """
      metadata:
        labels: {app: web}
      """
    And a pod "web-3" running on node "node-1" with:
      """
      metadata:
        labels: {app: web}
      """

  Scenario: one eviction is allowed, the next waits until a replacement is Ready
    Given a pod disruption budget "web-pdb" with minAvailable 2 selecting "app=web"
    When the user evicts pod "web-1"
    Then the last request returns 201
    And pod "web-1" is terminating
    When the user evicts pod "web-2"
    Then the eviction of pod "web-2" fails with 429 TooManyRequests
    And the last request fails with 429 TooManyRequests saying "Cannot evict pod as it would violate the pod's disruption budget."
    When the user creates pod "web-4" on node "node-1" with:
      """
      metadata:
        labels: {app: web}
      """
    And 2s pass
    And the user evicts pod "web-2"
    Then the last request returns 201
    And these events happen in order:
      | at   | component  | event                                                                       |
      | T+0s | apiserver  | CREATE pods/web-1/eviction                                                  |
      | T+0s | disruption | pdb web-pdb allows 0 (currentHealthy=2 desiredHealthy=2 expectedPods=3)     |
      | T+0s | apiserver  | CREATE pods/web-2/eviction                                                  |
      | T+1s | disruption | pdb web-pdb allows 1 (currentHealthy=3 desiredHealthy=2 expectedPods=3)     |
      | T+2s | apiserver  | CREATE pods/web-2/eviction                                                  |

  Scenario: the evicted pod is marked DisruptionTarget, then deleted with its own grace period
    Given a pod disruption budget "web-pdb" with minAvailable 2 selecting "app=web"
    When the user evicts pod "web-1"
    Then the last request changed pod "web-1" like this:
      | path                                 | from     | to    |
      | /metadata/generation                 | 1        | 2     |
      | /metadata/deletionTimestamp          | <absent> | T+30s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 30    |
      | /status/conditions                   | <any>    | <any> |

  Scenario: a pod that is not ready goes without spending a disruption under AlwaysAllow
    Given a pod disruption budget "web-pdb" with:
      """
      spec:
        minAvailable: 3
        selector: {matchLabels: {app: web}}
        unhealthyPodEvictionPolicy: AlwaysAllow
      """
    And container "app" of pod "web-3" exits with code 1 after running 10s
    When 15s pass
    And the user evicts pod "web-2"
    Then the eviction of pod "web-2" fails with 429 TooManyRequests
    When the user evicts pod "web-3"
    Then the last request returns 201
    And pod "web-3" is terminating

  Scenario: IfHealthyBudget (the default) keeps a crash-looping pod while the budget is short
    Given a pod disruption budget "web-pdb" with minAvailable 3 selecting "app=web"
    And container "app" of pod "web-3" exits with code 1 after running 10s
    When 15s pass
    And the user evicts pod "web-3"
    Then the eviction of pod "web-3" fails with 429 TooManyRequests
    And the last request fails with 429 TooManyRequests saying "Cannot evict pod as it would violate the pod's disruption budget."
