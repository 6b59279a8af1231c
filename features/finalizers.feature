@finalizers
Feature: Finalizers hold a deleted pod in the API
  A finalizer does not slow down the kubelet: the pod is stamped, the containers are killed and the
  kubelet's final DELETE with grace 0 still succeeds. It only keeps the object in etcd, with
  deletionGracePeriodSeconds 0, until the last finalizer is taken off. The update that removes it
  is then turned into the deletion itself: nothing of that update is stored, and the DELETED event
  carries the state from before it. A finalizer removed earlier, while the grace period is still
  running, is an ordinary update; the kubelet's DELETE removes the pod later. While a pod is being
  deleted no new finalizer may be added, but the propagation policy of a DELETE may install the
  garbage collector's own finalizers (foregroundDeletion, orphan).

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """

  Scenario: the kubelet's final DELETE succeeds but the finalizer keeps the pod
    # Store.Delete (R27): with a finalizer the kubelet's grace-0 DELETE only writes the stamp:
    # grace 0 and, since v1.33, deletionTimestamp = the time it is sent (R23, kubernetes#122646;
    # up to v1.32 it moved back to T+0); nothing is removed (timeline S8).
    When the user deletes pod "web"
    And 1m passes
    Then pod "web" is terminating
    And pod "web" has fields:
      | path                                 | value                |
      | /metadata/deletionTimestamp          | T+1s                 |
      | /metadata/deletionGracePeriodSeconds | 0                    |
      | /metadata/finalizers                 | ["example.com/hold"] |
      | /status/phase                        | "Failed"             |
    And these events happen in exactly this order:
      | at   | component | event                                                   |
      | T+0s | apiserver | DELETE pods/web                                         |
      | T+0s | etcd      | PUT /registry/pods/default/web                          |
      | T+0s | apiserver | PATCH pods/web/status                                   |
      | T+0s | etcd      | PUT /registry/pods/default/web                          |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
      | T+1s | etcd      | PUT /registry/pods/default/web                          |
    And no etcd event "DELETE /registry/pods/default/web" happens

  Scenario: removing the last finalizer deletes the pod inside that update
    # ShouldDeleteDuringUpdate (R28, R30): the stored pod has a deletionTimestamp and grace 0, the
    # new one has no finalizers, so the UPDATE is not written: the key is deleted instead, and
    # the DELETED event carries the pre-update state. The update changed no stored field.
    When the user deletes pod "web"
    And 1m passes
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path | from | to |
    And pod "web" is gone
    And these events happen in exactly this order:
      | at   | component | event                             |
      | T+1m | apiserver | UPDATE pods/web                   |
      | T+1m | etcd      | DELETE /registry/pods/default/web |
      | T+1m | watch     | DELETED pods/web                  |
    And these events happen in order:
      | at   | component | event                             |
      | T+1m | etcd      | DELETE /registry/pods/default/web |
      | T+1m | kubelet   | REMOVE pods/web                   |

  Scenario: removing the finalizer during the grace period does not delete the pod early
    # R29: the stored grace is still 5 > 0, so it is an ordinary update (MODIFIED, finalizers
    # gone). The pod leaves with the kubelet's grace-0 DELETE, as if it never had a finalizer.
    Given container "app" of pod "web" exits 5s after SIGTERM
    When the user deletes pod "web"
    And 2s pass
    And a controller removes finalizer "example.com/hold" from pod "web"
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path                 | from                 | to       |
      | /metadata/finalizers | ["example.com/hold"] | <absent> |
    And pod "web" is terminating
    When 10s pass
    Then pod "web" is gone
    And these events happen in order:
      | at   | component | event                                                   |
      | T+2s | apiserver | UPDATE pods/web                                         |
      | T+2s | watch     | MODIFIED pods/web                                       |
      | T+5s | runtime   | exited app code=0                                       |
      | T+6s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
      | T+6s | etcd      | DELETE /registry/pods/default/web                       |

  Scenario: no new finalizer can be added to a pod that is being deleted
    # ValidateNoNewFinalizers (R31): 422 Invalid, nothing written. Removing or keeping is fine.
    When the user deletes pod "web"
    And a controller adds finalizer "example.com/late" to pod "web"
    Then the last request fails with 422 Invalid saying "no new finalizers can be added if the object is being deleted"
    And the last request changed pod "web" like this:
      | path | from | to |
    And pod "web" has fields:
      | path                 | value                |
      | /metadata/finalizers | ["example.com/hold"] |

  # Not under -p real-kubectl: the real kubectl's --timeout counts wall-clock time, and the
  # simulation's 30 virtual seconds pass in milliseconds, so it would wait 30 real seconds.
  @built-in-kubectl-only
  Scenario: a finalizer also stops a force delete
    # R27 and timeline S8: grace 0 is written, but the object stays. The kubelet kills with grace 1;
    # its own DELETE finds the pod already at grace 0 and changes nothing (R33).
    When I try to run `kubectl delete pod web --force --timeout=30s`
    Then kubectl fails with "timed out waiting for the condition on pods/web"
    And pod "web" is terminating
    And pod "web" has fields:
      | path                                 | value |
      | /metadata/deletionTimestamp          | T+0s  |
      | /metadata/deletionGracePeriodSeconds | 0     |
    And these events happen in order:
      | at   | component | event                                                             |
      | T+0s | apiserver | DELETE pods/web gracePeriodSeconds=0 propagationPolicy=Background |
      | T+0s | kubelet   | SyncTerminatingPod pods/web gracePeriod=1                         |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid=           |
    And no etcd event "DELETE /registry/pods/default/web" happens

  Scenario: --cascade=foreground adds the foregroundDeletion finalizer along with the stamp
    # deletionFinalizersForGarbageCollection (R36-R38, R40): other finalizers keep their place,
    # foregroundDeletion is appended; for a pod the grace still comes from the spec.
    When I run `kubectl delete pod web --cascade=foreground --wait=false`
    Then the last request changed pod "web" like this:
      | path                                 | from                 | to                                         |
      | /metadata/finalizers                 | ["example.com/hold"] | ["example.com/hold", "foregroundDeletion"] |
      | /metadata/deletionTimestamp          | <absent>             | T+30s                                      |
      | /metadata/deletionGracePeriodSeconds | <absent>             | 30                                         |
      | /metadata/generation                 | 1                    | 2                                          |
    And these events happen in order:
      | component | event                                        |
      | apiserver | DELETE pods/web propagationPolicy=Foreground |

  Scenario: --cascade=orphan adds the orphan finalizer to a pod without finalizers
    Given a pod "api" running on node "node-1"
    When I run `kubectl delete pod api --cascade=orphan --wait=false`
    Then the last request changed pod "api" like this:
      | path                                 | from     | to         |
      | /metadata/finalizers                 | <absent> | ["orphan"] |
      | /metadata/deletionTimestamp          | <absent> | T+30s      |
      | /metadata/deletionGracePeriodSeconds | <absent> | 30         |
      | /metadata/generation                 | 1        | 2          |
    And pod "api" is terminating

  Scenario: the garbage collector takes foregroundDeletion off a pod without dependents
    # The GC's graph builder queues an object that starts "deleting dependents", and
    # garbagecollector.go attemptToDeleteItem → processDeletingDependentsItem removes the
    # foregroundDeletion finalizer when no dependent blocks it (a pod has none); the pod then
    # leaves with the kubelet's DELETE.
    Given a pod "api" running on node "node-1"
    When I run `kubectl delete pod api --cascade=foreground --timeout=2m`
    Then pod "api" is gone
    And kubectl prints 'pod "api" deleted'
