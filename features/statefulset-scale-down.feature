Feature: A StatefulSet scales down from its highest ordinal
  Under OrderedReady the StatefulSet controller deletes the pod with the highest ordinal and waits
  until it has left the API before it deletes the next; under Parallel it deletes them all at
  once (W52, W51).

  Scenario: kubectl scale: db-2 goes first, db-1 only once db-2 is gone
    Given a node "node-1"
    And a statefulset "db" with 3 replicas
    And container "app" of pod "db-2" exits 10s after SIGTERM
    And container "app" of pod "db-1" exits 10s after SIGTERM
    When I run `kubectl scale statefulset db --replicas=1`
    And 30s pass
    Then pod "db-2" is gone
    And pod "db-1" is gone
    And pod "db-0" exists
    And these events happen in order:
      | at            | component   | event                                                             |
      | T+0s          | apiserver   | PATCH statefulsets/db/scale                                       |
      | T+0s          | statefulset | statefulsets/db scales down: delete pods/db-2                     |
      | T+0s          | statefulset | statefulsets/db waits for pods/db-2 to terminate prior to scale down |
      | T+10s         | runtime     | exited app code=0 pods/db-2                                       |
      | T+10s..T+12s  | statefulset | statefulsets/db scales down: delete pods/db-1                     |
      | T+20s..T+22s  | runtime     | exited app code=0 pods/db-1                                       |

  Scenario: Parallel: both pods are deleted at once
    Given a node "node-1"
    And a statefulset "db" with 3 replicas with:
      """
      spec:
        podManagementPolicy: Parallel
      """
    And container "app" of pod "db-2" exits 10s after SIGTERM
    And container "app" of pod "db-1" exits 10s after SIGTERM
    When statefulset "db" is scaled to 1
    And 15s pass
    Then pod "db-2" is gone
    And pod "db-1" is gone
    And these events happen in order:
      | at    | component   | event                                         |
      | T+0s  | statefulset | statefulsets/db scales down: delete pods/db-2 |
      | T+0s  | statefulset | statefulsets/db scales down: delete pods/db-1 |
