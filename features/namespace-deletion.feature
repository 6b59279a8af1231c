@namespaces
Feature: Deleting a namespace, and a namespace stuck on a pod's finalizer
  DELETE of a namespace (R121) only stamps it: deletionTimestamp and phase Terminating; the
  `kubernetes` finalizer in its spec holds it. Five seconds later the namespace controller (C10, C11, C12)
  deletes its content: the pods first (OrderedNamespaceDeletion, on from v1.33), gracefully, then
  every other namespaced kind, with DELETECOLLECTION. While something remains it writes the
  namespace's conditions (NamespaceContentRemaining, NamespaceFinalizersRemaining, …) and looks
  again after half the estimate plus a second — the pods' grace period, or 15 s for content held by
  finalizers. Once the namespace is empty it removes `kubernetes` (namespaces/finalize) and the
  namespace is gone. Nothing new may be created in it meanwhile (R122).

  Background:
    Given a node "node-1"
    And a namespace "team"

  Scenario: a namespace goes once its pods have terminated
    # The status write at T+5s is a namespace update: the controller looks again 5 s after it (T+10s), before its own 16 s.
    Given a pod "web" in namespace "team" running on node "node-1"
    And container "app" of pod "web" exits 3s after SIGTERM
    When the user deletes namespace "team"
    Then namespace "team" is terminating
    And pod "web" exists
    When the cluster settles
    Then namespace "team" is gone
    And pod "web" is gone
    And these events happen in order:
      | at    | component | event                                                   |
      | T+0s  | apiserver | DELETE namespaces/team                                  |
      | T+5s  | apiserver | DELETECOLLECTION pods propagationPolicy=Background      |
      | T+5s  | apiserver | UPDATE namespaces/team/status                           |
      | T+5s  | namespace | namespace team: content remaining, estimate 30s: sync again in 16s |
      | T+5s  | runtime   | SIGTERM app pods/web                                    |
      | T+8s  | runtime   | exited app code=0 pods/web                              |
      | T+9s  | status    | DELETE pods/web                                         |
      | T+10s | apiserver | DELETECOLLECTION replicasets propagationPolicy=Background |
      | T+10s | namespace | namespace team is empty: finalize                       |
      | T+10s | apiserver | UPDATE namespaces/team/finalize                         |

  Scenario: a pod finalizer nobody removes keeps the namespace Terminating, naming the finalizer; removing it lets the namespace go
    Given a pod "held" in namespace "team" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """
    When the user deletes namespace "team"
    And 1m passes
    Then namespace "team" is terminating
    And pod "held" is terminating
    And namespace "team" has condition "NamespaceContentRemaining" with status "True"
    And namespace "team" has condition "NamespaceFinalizersRemaining" with status "True"
    And namespace "team" has condition "NamespaceDeletionContentFailure" with status "False"
    And namespace "team" has condition "NamespaceDeletionDiscoveryFailure" with status "False"
    When a controller removes finalizer "example.com/hold" from pod "held"
    And 20s pass
    Then pod "held" is gone
    And namespace "team" is gone

  Scenario: nothing new may be created in a terminating namespace
    Given a pod "held" in namespace "team" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """
    When the user deletes namespace "team"
    And the user creates pod "late" on node "node-1" in namespace "team"
    Then the last request fails with 403 Forbidden saying "pods \"late\" is forbidden: unable to create new content in namespace team because it is being terminated"

  Scenario: kubectl delete namespace waits until the namespace is gone
    Given a pod "web" in namespace "team" running on node "node-1"
    When I run `kubectl delete namespace team`
    Then kubectl prints "namespace \"team\" deleted"
    And namespace "team" is gone
    And pod "web" is gone
    And these events happen in order:
      | at    | component | event                                                  |
      | T+0s  | apiserver | DELETE namespaces/team propagationPolicy=Background    |
      | T+5s  | apiserver | DELETECOLLECTION pods propagationPolicy=Background     |
      | T+10s | apiserver | UPDATE namespaces/team/finalize                        |
