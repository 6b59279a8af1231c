@node-failure
Feature: Pods on a lost node: node lifecycle, taint eviction and pod GC
  When a node stops reaching the apiserver, nobody on it can finish a deletion (K46): the kubelet
  would send the final DELETE, and it is cut off. Three controllers of kube-controller-manager act:
  - node lifecycle (monitorNodeHealth, every 5s): no Lease renewal seen for the grace period (50s
    since v1.32) makes the node Ready=Unknown, taints it node.kubernetes.io/unreachable (NoSchedule
    with that update, NoExecute in the same pass since v1.34 — up to v1.33 at the next pass, V5)
    and marks its pods not ready;
  - taint eviction: a pod admitted with the default 300s toleration (DefaultTolerationSeconds) is
    deleted 300s after the NoExecute taint: a DisruptionTarget condition, then a DELETE with no
    options. The pod only becomes Terminating: its kubelet never hears of it (K47);
  - pod GC (every 20s): it force-deletes (phase Failed, then gracePeriodSeconds 0) the pods of a
    node object that is gone, after a 40s quarantine (K48), and the terminating pods of a NotReady
    node tainted node.kubernetes.io/out-of-service (K49).
  Timeline S9 (docs/rules/kubelet.md). The loops run on fixed periods from the cluster's start, so
  where their phase matters the `at` cells give ranges.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario: taint eviction deletes the pods of an unreachable node, and they stay Terminating
    # tryUpdateNodeHealth: the last renewal was seen at T+0; the first 5s pass more than 50s later
    # writes Unknown; MarkPodsNotReady sets the pod's Ready to False; the same pass, seeing
    # Unknown (v1.34+, V5), adds the NoExecute taint (processTaintBaseEviction). processPodOnNode schedules the
    # eviction for the pod's shortest matching toleration: 300s. addConditionAndDeletePod sends
    # an empty DELETE, so the spec's 30s grace is stamped, and nobody finishes it.
    When node "node-1" becomes unreachable
    And 6m pass
    Then pod "web" is terminating
    And pod "web" has fields:
      | path                                    | value                                            |
      | /metadata/deletionTimestamp             | T+6m25s                                          |
      | /metadata/deletionGracePeriodSeconds    | 30                                               |
      | /status/phase                           | "Running"                                        |
      | /status/conditions/2/type               | "Ready"                                          |
      | /status/conditions/2/status             | "False"                                          |
      | /status/conditions/5/type               | "DisruptionTarget"                               |
      | /status/conditions/5/reason             | "DeletionByTaintManager"                         |
      | /status/conditions/5/message            | "Taint manager: deleting due to NoExecute taint" |
      | /status/conditions/5/lastTransitionTime | T+5m55s                                          |
    And pod "web" has an event "TaintManagerEviction"
    And these events happen in order:
      | at           | component     | event                                                               |
      | T+0s         | kubelet       | node node-1 cannot reach the apiserver                              |
      | T+50s..T+55s | nodelifecycle | node node-1 Ready=Unknown                                           |
      | T+50s..T+55s | apiserver     | UPDATE nodes/node-1/status                                          |
      | T+50s..T+55s | nodelifecycle | node node-1 tainted node.kubernetes.io/unreachable:NoExecute        |
      | T+50s..T+55s | apiserver     | UPDATE pods/web/status                                              |
      | T+50s..T+55s | nodelifecycle | node node-1 taints +node.kubernetes.io/unreachable:NoSchedule       |
      | T+50s..T+55s | nodelifecycle | eviction of pods/web scheduled in 300s                              |
      | T+5m55s      | events        | TaintManagerEviction pods/web: Marking for deletion Pod default/web |
    And these events happen in exactly this order:
      | at      | component     | event                                                    |
      | T+5m55s | nodelifecycle | taint eviction pods/web: deleting due to NoExecute taint |
      | T+5m55s | apiserver     | PATCH pods/web/status                                    |
      | T+5m55s | apiserver     | DELETE pods/web                                          |
    When 30m pass
    Then pod "web" is terminating
    And no status event "DELETE pods/web" happens
    And no etcd event "DELETE /registry/pods/default/web" happens

  Scenario: the node comes back and the kubelet finishes the deletion
    # On return the kubelet sees the pod with its deletionTimestamp and runs the ordinary graceful
    # termination (G = deletionGracePeriodSeconds, 30s), then sends its final DELETE. Node
    # lifecycle lifts the NoSchedule taint with the Ready status and the NoExecute one at its next
    # pass (markNodeAsReachable).
    When node "node-1" becomes unreachable
    And 6m pass
    Then pod "web" is terminating
    When node "node-1" becomes reachable again
    And the cluster settles
    Then pod "web" is gone
    And these events happen in order:
      | at           | component     | event                                                   |
      | T+5m55s      | apiserver     | DELETE pods/web                                         |
      | T+6m         | kubelet       | node node-1 reaches the apiserver again                 |
      | T+6m         | kubelet       | SyncTerminatingPod pods/web gracePeriod=30              |
      | T+6m         | runtime       | SIGTERM app                                             |
      | T+6m..T+6m1s | status        | DELETE pods/web gracePeriodSeconds=0                    |
      | T+6m..T+6m1s | apiserver     | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
      | T+6m..T+6m1s | etcd          | DELETE /registry/pods/default/web                       |
      | T+6m..T+6m5s | nodelifecycle | node node-1 is Ready again: NoExecute taints removed    |
    And these events happen in order:
      | at   | component     | event                                                         |
      | T+6m | nodelifecycle | node node-1 taints -node.kubernetes.io/unreachable:NoSchedule |

  Scenario: the node comes back before eviction: the kubelet sets Ready back to True within 10s
    # MarkPodsNotReady wrote Ready=False behind the kubelet's back. Once its watch delivers that
    # status (a RECONCILE op), the status manager's full sync, every 10s, compares its cached
    # status with the API copy (syncBatch(all) → needsReconcile, K35) and PATCHes Ready back.
    When node "node-1" becomes unreachable
    And 2m pass
    Then pod "web" has fields:
      | path                        | value   |
      | /status/conditions/2/type   | "Ready" |
      | /status/conditions/2/status | "False" |
    When node "node-1" becomes reachable again
    And 10s pass
    Then pod "web" has fields:
      | path                        | value   |
      | /status/conditions/2/type   | "Ready" |
      | /status/conditions/2/status | "True"  |
    And these events happen in order:
      | at            | component     | event                                         |
      | T+50s..T+55s  | apiserver     | UPDATE pods/web/status                        |
      | T+2m          | kubelet       | node node-1 reaches the apiserver again       |
      | T+2m          | kubelet       | RECONCILE pods/web                            |
      | T+2m..T+2m10s | apiserver     | PATCH pods/web/status                         |
    And no status event "DELETE pods/web" happens

  Scenario: the node object is deleted: pod GC force-deletes its pods after the quarantine
    # gcOrphaned: the first 20s pass after the deletion finds pods bound to a node missing from the
    # informer and queues the name for 40s; the pass that finds the quarantine over confirms with
    # a live GET, then markFailedAndDeletePodWithCondition: phase Failed and DisruptionTarget
    # (DeletionByPodGC), then DELETE gracePeriodSeconds=0. "db" has a finalizer, so it stays to
    # show what was written.
    Given a pod "db" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """
    And node "node-1" is unreachable
    When node "node-1" is deleted
    And 2m pass
    Then pod "web" is gone
    And pod "db" is terminating
    And pod "db" has phase "Failed"
    And pod "db" has fields:
      | path                                 | value                          |
      | /metadata/deletionTimestamp          | <any>                          |
      | /metadata/deletionGracePeriodSeconds | 0                              |
      | /metadata/finalizers                 | ["example.com/hold"]           |
      | /status/conditions/5/type            | "DisruptionTarget"             |
      | /status/conditions/5/status          | "True"                         |
      | /status/conditions/5/reason          | "DeletionByPodGC"              |
      | /status/conditions/5/message         | "PodGC: node no longer exists" |
    And these events happen in order:
      | at          | component | event                                               |
      | T+0s        | apiserver | DELETE nodes/node-1                                 |
      | T+0s        | etcd      | DELETE /registry/minions/node-1                     |
      | T+0s..T+20s | podgc     | node node-1 not found: quarantined for 40s          |
      | T+40s..T+1m | podgc     | force delete pods/db: node node-1 no longer exists  |
      | T+40s..T+1m | apiserver | PATCH pods/db/status                                |
      | T+40s..T+1m | apiserver | DELETE pods/db gracePeriodSeconds=0                 |
      | T+40s..T+1m | podgc     | force delete pods/web: node node-1 no longer exists |
      | T+40s..T+1m | apiserver | PATCH pods/web/status                               |
      | T+40s..T+1m | apiserver | DELETE pods/web gracePeriodSeconds=0                |
      | T+40s..T+1m | etcd      | DELETE /registry/pods/default/web                   |
    And no kubelet event "SyncTerminatingPod" happens

  Scenario: the out-of-service taint: taint eviction deletes at once, then pod GC force-deletes
    # An admin declares the node shut down for good. The pod does not tolerate that taint, so
    # processPodOnNode cancels the 300s eviction (an Event says so) and evicts at once; the pod is
    # Terminating on a node that is not Ready and tainted out-of-service, which gcTerminating
    # force-deletes at its next pass (phase Failed, no condition of its own; then grace 0).
    Given node "node-1" is unreachable
    When 1m passes
    Then pod "web" exists
    When node "node-1" is tainted out-of-service
    Then the last request returns 200
    And pod "web" is terminating
    When 20s pass
    Then pod "web" is gone
    And these events happen in order:
      | at            | component     | event                                                                                                               |
      | T+1m          | apiserver     | PATCH nodes/node-1                                                                                                  |
      | T+1m          | events        | TaintManagerEviction pods/web: Cancelling deletion of Pod default/web                                               |
      | T+1m          | nodelifecycle | eviction of pods/web scheduled in 0s                                                                                |
      | T+1m          | nodelifecycle | taint eviction pods/web: deleting due to NoExecute taint                                                            |
      | T+1m          | apiserver     | PATCH pods/web/status                                                                                               |
      | T+1m          | apiserver     | DELETE pods/web                                                                                                     |
      | T+1m..T+1m20s | podgc         | force delete pods/web: terminating on node node-1, which is not ready and tainted node.kubernetes.io/out-of-service |
      | T+1m..T+1m20s | apiserver     | PATCH pods/web/status                                                                                               |
      | T+1m..T+1m20s | apiserver     | DELETE pods/web gracePeriodSeconds=0                                                                                |
      | T+1m..T+1m20s | etcd          | DELETE /registry/pods/default/web                                                                                   |

  Scenario: a pod the user deleted on the lost node stays Terminating; taint eviction still marks it
    # Timeline S9 with a user DELETE at T+0. processPodOnNode does not look at deletionTimestamp:
    # 300s after the NoExecute taint the pod gets its DisruptionTarget condition, and the empty
    # DELETE finds a pending deletion with a grace no longer than its own, which changes nothing (R22).
    When node "node-1" becomes unreachable
    And the user deletes pod "web"
    And 10m pass
    Then pod "web" is terminating
    And pod "web" has fields:
      | path                                 | value                    |
      | /metadata/deletionTimestamp          | T+30s                    |
      | /metadata/deletionGracePeriodSeconds | 30                       |
      | /status/conditions/5/reason          | "DeletionByTaintManager" |
    And these events happen in order:
      | at      | component     | event                   |
      | T+0s    | apiserver     | DELETE pods/web         |
      | T+5m55s | nodelifecycle | taint eviction pods/web |
      | T+5m55s | apiserver     | PATCH pods/web/status   |
      | T+5m55s | apiserver     | DELETE pods/web         |
    And no status event "DELETE pods/web" happens

  Scenario: the node object is deleted while its kubelet still runs: pod GC removes the pod, the kubelet kills it with grace 1
    # Deleting a Node does not stop its kubelet, which keeps watching the pods bound to it (and
    # does not register the node again: it registers once, when it starts). Pod GC finds the node
    # missing at its next pass and force-deletes the pod after the quarantine (K48); the kubelet
    # sees that DELETE, with grace 0, and kills the container with grace 1 (K16). Nobody else
    # wrote the pod's status, so its last stored state is Failed and still Ready.
    When node "node-1" is deleted
    And 1m30s pass
    Then pod "web" is gone
    And no podgc event "force delete" happens between T+0s and T+39s
    And these events happen in order:
      | at          | component | event                                               |
      | T+0s        | apiserver | DELETE nodes/node-1                                 |
      | T+0s..T+20s | podgc     | node node-1 not found: quarantined for 40s          |
      | T+40s..T+1m | podgc     | force delete pods/web: node node-1 no longer exists |
      | T+40s..T+1m | apiserver | DELETE pods/web gracePeriodSeconds=0                |
      | T+40s..T+1m | kubelet   | SyncTerminatingPod pods/web gracePeriod=1           |
      | T+40s..T+1m | runtime   | SIGTERM app                                         |
    And pod "web" was removed with condition "DisruptionTarget" with status "True" and reason "DeletionByPodGC"
    And pod "web" was removed with condition "Ready" with status "True" and no reason
    And pod "web" was removed with fields:
      | path          | value    |
      | /status/phase | "Failed" |
    And pod "web" has 1 event "Killing"

  Scenario: a pod bound to a node that never existed: no kubelet runs it, pod GC removes it
    # No kubelet watches node "gone", so the pod stays Pending with no status at all. Pod GC's
    # first pass after the pod was created (T-40s) quarantines the missing node; the pass at T+0
    # finds the quarantine over and the node still missing (K48).
    Given a pod "ghost" bound to node "gone" that does not exist
    When the cluster settles
    Then pod "ghost" is gone
    And pod "ghost" was removed with condition "DisruptionTarget" with status "True" and reason "DeletionByPodGC"
    And pod "ghost" was removed with fields:
      | path          | value    |
      | /status/phase | "Failed" |
    And these events happen in order:
      | at   | component | event                                               |
      | T+0s | podgc     | force delete pods/ghost: node gone no longer exists |
      | T+0s | apiserver | PATCH pods/ghost/status                             |
      | T+0s | apiserver | DELETE pods/ghost gracePeriodSeconds=0              |
    And no kubelet event "DELETE pods/ghost" happens
    And pod "web" exists
