@workloads
Feature: Which pod a ReplicaSet scale-down deletes
  When a ReplicaSet has more pods than spec.replicas, its controller (W6; replica_set.go
  manageReplicas → getPodsToDelete, W7) sorts them by ActivePodsWithRanks and deletes the first
  ones with a plain DELETE: unassigned before assigned, Pending before Unknown before Running, not
  ready before ready, then the lower controller.kubernetes.io/pod-deletion-cost, then more pods of
  the same owner on the node, then ready for less time, more restarts, created later. Its pods'
  names are generated (NAME-xxxxx, the same on every run of the scenario).

  Background:
    Given a node "node-1"
    And a replicaset "web" with 3 replicas on node "node-1"

  Scenario: the pod with the lowest pod-deletion-cost goes first, then the next lowest
    When the user sets annotation "controller.kubernetes.io/pod-deletion-cost" of pod "web-rbkgt" to "-100"
    And the user sets annotation "controller.kubernetes.io/pod-deletion-cost" of pod "web-g2jmh" to "100"
    And replicaset "web" is scaled to 2
    Then the replicaset controller deletes pod "web-rbkgt"
    And these events happen in order:
      | at   | component  | event                                                  |
      | T+0s | replicaset | deletes pod web-rbkgt (rank: pod-deletion-cost -100)   |
      | T+0s | apiserver  | DELETE pods/web-rbkgt                                  |
      | T+0s | kubelet    | DELETE pods/web-rbkgt                                  |
    When replicaset "web" is scaled to 1
    Then the replicaset controller deletes pod "web-j4bbm"
    And no replicaset event "deletes pod web-g2jmh" happens
    When the cluster settles
    Then replicaset "web" has fields:
      | path                        | value |
      | /spec/replicas              | 1     |
      | /status/replicas            | 1     |
      | /status/readyReplicas       | 1     |
      | /status/availableReplicas   | 1     |
      | /status/observedGeneration  | 3     |

  Scenario: a pod that is not ready goes before ready ones, whatever its cost
    Given container "app" of pod "web-j4bbm" exits 5s after SIGTERM
    When the user sets annotation "controller.kubernetes.io/pod-deletion-cost" of pod "web-rbkgt" to "-100"
    And a controller sets condition "Ready" of pod "web-g2jmh" to "False"
    And replicaset "web" is scaled to 2
    Then the replicaset controller deletes pod "web-g2jmh"

  Scenario: scaling up creates pods in slow-start batches, and they are scheduled
    When replicaset "web" is scaled to 6
    Then the replicaset controller creates a pod
    When the cluster settles
    Then replicaset "web" has fields:
      | path                  | value |
      | /status/replicas      | 6     |
      | /status/readyReplicas | 6     |

  Scenario: a pod that matches the selector and has no owner is adopted, and counts
    Given a replicaset "api" with 2 replicas on node "node-1" with:
      """
      metadata:
        labels:
          tier: backend
      """
    And a pod "stray" running on node "node-1" with:
      """
      metadata:
        labels:
          app: api
      """
    When 1s passes
    Then pod "stray" has fields:
      | path                                  | value        |
      | /metadata/ownerReferences/0/kind      | "ReplicaSet" |
      | /metadata/ownerReferences/0/name      | "api"        |
      | /metadata/ownerReferences/0/controller | true        |
    And replicaset "api" has fields:
      | path             | value |
      | /status/replicas | 2     |
