@propagation
Feature: Deleting an owner: the garbage collector and the propagation policy
  A ReplicaSet owns its pods through their ownerReferences. What happens to the pods when the
  ReplicaSet is deleted is decided by the DELETE's propagationPolicy (R35–R40)
  and carried out by the garbage collector (pkg/controller/garbagecollector), which watches both
  kinds and keeps a graph of owners and dependents:
  - Background: the owner goes at once; the collector then deletes each dependent, with
    preconditions on its uid and resourceVersion (attemptToDeleteItem).
  - Foreground: the owner is only stamped (a ReplicaSet has no grace period: markAsDeleting writes
    deletionTimestamp now, deletionGracePeriodSeconds 0, generation + 1) and gets the
    foregroundDeletion finalizer; the collector deletes the dependents and takes the finalizer off
    once no dependent with blockOwnerDeletion is left (processDeletingDependentsItem).
  - Orphan: the owner gets the orphan finalizer; the collector removes the owner's reference from
    every dependent, then the finalizer (attemptToOrphanWorker). The pods keep running.
  The collector's own DELETEs name propagationPolicy Background, so a pod it deletes takes the
  graceful path: the kubelet stops it and sends the final DELETE, as for any other deletion.

  Background:
    Given a node "node-1"
    And a replicaset "web" owning pods "web-1" and "web-2"

  Scenario: Background: the ReplicaSet goes at once, then the collector deletes its pods
    # Store.Delete: a ReplicaSet has no finalizer and no grace, so the DELETE removes it. The GC
    # sees DELETED, finds its dependents' owner gone (a live GET, isDangling) and deletes each of
    # them with a uid and resourceVersion precondition (operations.go deleteObject).
    When the user deletes replicaset "web" with propagation Background
    Then the last request returns 200
    And replicaset "web" is gone
    And pod "web-1" is terminating
    And pod "web-2" is terminating
    And these events happen in order:
      | at   | component | event                                                             |
      | T+0s | apiserver | DELETE replicasets/web propagationPolicy=Background               |
      | T+0s | etcd      | DELETE /registry/replicasets/default/web                          |
      | T+0s | watch     | DELETED replicasets/web                                           |
      | T+0s | gc        | delete pods/web-1: its owner replicasets/web is gone              |
      | T+0s | apiserver | DELETE pods/web-1 propagationPolicy=Background preconditions.uid= |
      | T+0s | etcd      | PUT /registry/pods/default/web-1                                  |
      | T+0s | gc        | delete pods/web-2: its owner replicasets/web is gone              |
      | T+0s | apiserver | DELETE pods/web-2 propagationPolicy=Background preconditions.uid= |
      | T+0s | kubelet   | SyncTerminatingPod pods/web-1 gracePeriod=30                      |
    When the cluster settles
    Then pod "web-1" is gone
    And pod "web-2" is gone
    And these events happen in order:
      | at   | component | event                                                     |
      | T+1s | status    | DELETE pods/web-1 gracePeriodSeconds=0                    |
      | T+1s | apiserver | DELETE pods/web-1 gracePeriodSeconds=0 preconditions.uid= |
      | T+1s | etcd      | DELETE /registry/pods/default/web-1                       |
    And no gc event "remove finalizer" happens

  Scenario: Foreground: the ReplicaSet stays, held by foregroundDeletion, until its last pod is gone
    # markAsDeleting (R33) stamps the ReplicaSet and deletionFinalizersForGarbageCollection (R36-R37)
    # adds foregroundDeletion in one write. The GC's graph builder sees it start "deleting
    # dependents" and queues every dependent; each is deleted (Background). The owner loses the
    # finalizer only when no blocking dependent is left in the graph: web-2 takes 10s to stop.
    Given container "app" of pod "web-2" exits 10s after SIGTERM
    When the user deletes replicaset "web" with propagation Foreground
    Then the last request returns 200
    And replicaset "web" exists
    And pod "web-1" is terminating
    And pod "web-2" is terminating
    When 5s pass
    Then pod "web-1" is gone
    And replicaset "web" exists
    When 10s pass
    Then pod "web-2" is gone
    And replicaset "web" is gone
    And these events happen in order:
      | at    | component | event                                                                           |
      | T+0s  | apiserver | DELETE replicasets/web propagationPolicy=Foreground                             |
      | T+0s  | etcd      | PUT /registry/replicasets/default/web                                           |
      | T+0s  | watch     | MODIFIED replicasets/web                                                        |
      | T+0s  | gc        | delete pods/web-1: its owner replicasets/web is being deleted in the foreground |
      | T+0s  | apiserver | DELETE pods/web-1 propagationPolicy=Background preconditions.uid=               |
      | T+0s  | gc        | delete pods/web-2: its owner replicasets/web is being deleted in the foreground |
      | T+0s  | apiserver | DELETE pods/web-2 propagationPolicy=Background preconditions.uid=               |
      | T+1s  | etcd      | DELETE /registry/pods/default/web-1                                             |
      | T+10s | runtime   | exited app code=0                                                               |
      | T+11s | status    | DELETE pods/web-2 gracePeriodSeconds=0                                          |
      | T+11s | etcd      | DELETE /registry/pods/default/web-2                                             |
      | T+11s | gc        | remove finalizer foregroundDeletion from replicasets/web                        |
      | T+11s | apiserver | PATCH replicasets/web                                                           |
      | T+11s | etcd      | DELETE /registry/replicasets/default/web                                        |
      | T+11s | watch     | DELETED replicasets/web                                                         |
    And these events happen in exactly this order:
      | at    | component | event                                                    |
      | T+11s | gc        | remove finalizer foregroundDeletion from replicasets/web |
      | T+11s | etcd      | DELETE /registry/replicasets/default/web                 |

  Scenario: Foreground: a pod held by a finalizer holds its owner too
    # A dependent that is Terminating is still in the graph, so it still blocks: the ReplicaSet
    # keeps foregroundDeletion for as long as the pod's own finalizer keeps the pod.
    Given a replicaset "api" with:
      """
      metadata:
        labels:
          tier: backend
      """
    And a pod "api-1" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """
    And pod "api-1" is owned by replicaset "api"
    When the user deletes replicaset "api" with propagation Foreground
    And 10m pass
    Then pod "api-1" is terminating
    And pod "api-1" has fields:
      | path                                 | value                |
      | /metadata/deletionGracePeriodSeconds | 0                    |
      | /metadata/finalizers                 | ["example.com/hold"] |
    And replicaset "api" exists
    And no gc event "remove finalizer foregroundDeletion from replicasets/api" happens
    When a controller removes finalizer "example.com/hold" from pod "api-1"
    Then pod "api-1" is gone
    And replicaset "api" is gone
    And these events happen in order:
      | at    | component | event                                                                           |
      | T+0s  | gc        | delete pods/api-1: its owner replicasets/api is being deleted in the foreground |
      | T+10m | apiserver | UPDATE pods/api-1                                                               |
      | T+10m | etcd      | DELETE /registry/pods/default/api-1                                             |
      | T+10m | gc        | remove finalizer foregroundDeletion from replicasets/api                        |
      | T+10m | etcd      | DELETE /registry/replicasets/default/api                                        |

  Scenario: Orphan: the pods lose their ownerReferences and keep running; the ReplicaSet goes
    # deletionFinalizersForGarbageCollection adds "orphan" (R35); the GC's attemptToOrphanWorker
    # patches every dependent to drop the reference, then removes the finalizer, and the update
    # that removes the last finalizer of a stamped object deletes it (R28).
    When the user deletes replicaset "web" with propagation Orphan
    Then the last request returns 200
    And replicaset "web" is gone
    And pod "web-1" has no owner references
    And pod "web-2" has no owner references
    And these events happen in exactly this order:
      | at   | component | event                                                           |
      | T+0s | apiserver | DELETE replicasets/web propagationPolicy=Orphan                 |
      | T+0s | gc        | orphan pods/web-1: remove its ownerReference to replicasets/web |
      | T+0s | apiserver | PATCH pods/web-1                                                |
      | T+0s | gc        | orphan pods/web-2: remove its ownerReference to replicasets/web |
      | T+0s | apiserver | PATCH pods/web-2                                                |
      | T+0s | gc        | remove finalizer orphan from replicasets/web                    |
      | T+0s | apiserver | PATCH replicasets/web                                           |
    When 10m pass
    Then pod "web-1" has phase "Running"
    And pod "web-2" has phase "Running"
    And pod "web-1" has fields:
      | path                        | value    |
      | /metadata/deletionTimestamp | <absent> |
    And no apiserver event "DELETE pods/" happens

  Scenario: Foreground: the DELETE stamps the ReplicaSet the non-graceful way (markAsDeleting)
    # R33: dT = now, dGP = 0, generation + 1 (only when dT was unset); R37: foregroundDeletion
    # appended.
    When the user deletes replicaset "web" with propagation Foreground
    Then the last request changed replicaset "web" like this:
      | path                                 | from     | to                     |
      | /metadata/deletionTimestamp          | <absent> | T+0s                   |
      | /metadata/deletionGracePeriodSeconds | <absent> | 0                      |
      | /metadata/finalizers                 | <absent> | ["foregroundDeletion"] |
      | /metadata/generation                 | 1        | 2                      |

  Scenario: Foreground: a dependent with blockOwnerDeletion false is deleted, but not waited for
    # processDeletingDependentsItem only counts blockingDependents.
    Given a pod "web-3" running on node "node-1"
    And pod "web-3" is owned by replicaset "web" without blocking its deletion
    And container "app" of pod "web-3" exits 20s after SIGTERM
    When the user deletes replicaset "web" with propagation Foreground
    And 5s pass
    Then replicaset "web" is gone
    And pod "web-3" is terminating
