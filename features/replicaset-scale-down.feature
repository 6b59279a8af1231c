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
    When the user sets annotation "controller.kubernetes.io/pod-deletion-cost" of pod "web-p8fxk" to "-100"
    And the user sets annotation "controller.kubernetes.io/pod-deletion-cost" of pod "web-8458b" to "100"
    And replicaset "web" is scaled to 2
    Then the replicaset controller deletes pod "web-p8fxk"
    And these events happen in order:
      | at   | component  | event                                                  |
      | T+0s | replicaset | deletes pod web-p8fxk (rank: pod-deletion-cost -100)   |
      | T+0s | apiserver  | DELETE pods/web-p8fxk                                  |
      | T+0s | kubelet    | DELETE pods/web-p8fxk                                  |
    When replicaset "web" is scaled to 1
    Then the replicaset controller deletes pod "web-88ct2"
    And no replicaset event "deletes pod web-8458b" happens
    When the cluster settles
    Then replicaset "web" has fields:
      | path                        | value |
      | /spec/replicas              | 1     |
      | /status/replicas            | 1     |
      | /status/readyReplicas       | 1     |
      | /status/availableReplicas   | 1     |
      | /status/observedGeneration  | 3     |

  Scenario: a pod that is not ready goes before ready ones, whatever its cost
    Given container "app" of pod "web-88ct2" exits 5s after SIGTERM
    When the user sets annotation "controller.kubernetes.io/pod-deletion-cost" of pod "web-p8fxk" to "-100"
    And a controller sets condition "Ready" of pod "web-8458b" to "False"
    And replicaset "web" is scaled to 2
    Then the replicaset controller deletes pod "web-8458b"

  Scenario: scaling up creates pods in slow-start batches, and they are scheduled
    When replicaset "web" is scaled to 6
    Then the replicaset controller creates a pod
    When the cluster settles
    Then replicaset "web" has fields:
      | path                  | value |
      | /status/replicas      | 6     |
      | /status/readyReplicas | 6     |
