Feature: A drain under a PodDisruptionBudget while the disruption controller lags
  The eviction API grants an eviction on the budget's status.disruptionsAllowed, which the
  disruption controller computes from its informers' view of the pods (D2, D5): kube-apiserver
  does not count healthy pods itself. When the controller sees a pod turn unready late, the budget
  still allows a disruption it should not, and a drain in that window takes the last ready pod.
  Each scenario holds as written; `npx terminating explore` finds the race in the first (the
  disruption controller seeing pod changes 1 s late) and none in the second, whose budget has
  room for one unready pod. (docs/exploring.md; docs/rules/disruption.md D2, D5)

  Background:
    Given a node "node-1"
    And a node "node-2"
    And a pod "web-1" running on node "node-1" with label "app=web"
    # web-2 fails on its own at T+1s and is not restarted: the kubelet reports it not ready at T+2s.
    And a pod "web-2" running on node "node-2" with:
      """
      metadata:
        labels:
          app: web
      spec:
        restartPolicy: Never
      """
    And container "app" of pod "web-2" exits with code 1 after running 61s
    And a pod disruption budget "web-pdb" with minAvailable 1 selecting "app=web"

  Scenario: The budget refuses to evict the last ready pod, and the drain gives up
    When 2500ms pass
    And I try to run `kubectl drain node-1 --force --timeout=10s`
    Then at no instant are fewer than 1 pods with label "app=web" ready
    And kubectl fails with "global timeout reached: 10s"

  Scenario: The race itself: the disruption controller sees pods 1s late, and the drain takes the last ready pod
    Given the disruption controller sees pod changes 1s late
    When 2500ms pass
    And I run `kubectl drain node-1 --force --timeout=10s`
    Then pod "web-1" is gone
    And at no instant do more than 2 pods with label "app=web" exist

  Scenario: Room for one unready pod: with a third pod the same lag takes nothing the budget protects
    Given a pod "web-3" running on node "node-2" with label "app=web"
    When 2500ms pass
    And I run `kubectl drain node-1 --force --timeout=10s`
    Then at no instant are fewer than 1 pods with label "app=web" ready
