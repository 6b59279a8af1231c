@forced
Feature: Forced deletion of a pod
  `kubectl delete pod --force` sends a DELETE with gracePeriodSeconds 0. The apiserver then stamps
  the pod and removes it from etcd in the same request, without waiting for the kubelet: the name
  is free at once, but nothing has been stopped yet. The kubelet learns of it afterwards and still
  kills the containers, with a grace of 1 second (so CRI StopContainer gets the 2-second floor).
  This is why kubectl warns that the resource "may continue to run on the cluster indefinitely",
  and why a pod recreated under the same name can run next to the old containers for a while.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" ignores SIGTERM

  Scenario: --force removes the pod at once while its container is still running
    # kubectl Complete (K8): --force without --grace-period sends gracePeriodSeconds=0. The
    # apiserver writes the stamp and removes the pod in one request (R16): MODIFIED, DELETED.
    When I run `kubectl delete pod web --force`
    Then kubectl prints "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely."
    And kubectl prints 'pod "web" force deleted'
    And the last request changed pod "web" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+0s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 0    |
      | /metadata/generation                 | 1        | 2    |
    And pod "web" is gone
    And these events happen in exactly this order:
      | at   | component | event                                                             |
      | T+0s | apiserver | DELETE pods/web gracePeriodSeconds=0 propagationPolicy=Background |
      | T+0s | etcd      | PUT /registry/pods/default/web                                    |
      | T+0s | watch     | MODIFIED pods/web                                                 |
      | T+0s | etcd      | DELETE /registry/pods/default/web                                 |
      | T+0s | watch     | DELETED pods/web                                                  |
    And no runtime event "exited app" happens

  Scenario: the kubelet still kills the orphaned container, with grace 1 and the 2-second floor
    # calculateEffectiveGracePeriod (K16, v1.31+): API grace 0 becomes kubelet grace 1, and
    # killContainer raises it to minimumGracePeriodInSeconds = 2 (K27), timeline S6. Before about
    # v1.31 the kubelet used the spec's 30s here (issues #113717, #120449).
    When I run `kubectl delete pod web --force`
    And 5s pass
    Then these events happen in order:
      | at   | component | event                                     |
      | T+0s | etcd      | DELETE /registry/pods/default/web         |
      | T+0s | kubelet   | DELETE pods/web                           |
      | T+0s | kubelet   | SyncTerminatingPod pods/web gracePeriod=1 |
      | T+0s | runtime   | SIGTERM app                               |
      | T+0s | kubectl   | pods/web is gone                          |
      | T+2s | runtime   | SIGKILL app                               |
      | T+2s | runtime   | exited app code=137                       |
      | T+3s | kubelet   | SyncTerminatedPod pods/web                |

  Scenario: after a force delete the kubelet writes nothing back to the API
    # status manager syncPod (K35, K37): its GET finds no pod, so there is no status PATCH and
    # no final DELETE (canBeDeleted never runs for a pod already gone).
    When I run `kubectl delete pod web --force`
    And 1m passes
    Then no status event "resources reclaimed" happens
    And no status event "DELETE pods/web" happens
    And no apiserver event "PATCH pods/web/status" happens

  Scenario: --grace-period=0 without --force is turned into 1 second, and the pod is not removed at once
    # kubectl Complete (K8): 0 without --force means "as fast as possible", i.e. 1, and kubectl
    # waits. With grace 1 the kubelet, not the apiserver, removes the pod (R14, K36).
    When I run `kubectl delete pod web --grace-period=0 --wait=false`
    Then the last request changed pod "web" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+1s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 1    |
      | /metadata/generation                 | 1        | 2    |
    And pod "web" is terminating
    When 5s pass
    Then pod "web" is gone
    And these events happen in order:
      | at   | component | event                                                             |
      | T+0s | apiserver | DELETE pods/web gracePeriodSeconds=1 propagationPolicy=Background |
      | T+2s | runtime   | SIGKILL app                                                       |
      | T+3s | status    | DELETE pods/web gracePeriodSeconds=0 preconditions.uid=           |
      | T+3s | etcd      | DELETE /registry/pods/default/web                                 |

  Scenario: --now is the same as a one-second grace period
    # kubectl Complete (K8): --now sets gracePeriodSeconds=1.
    When I run `kubectl delete pod web --now --wait=false`
    Then kubectl prints 'pod "web" deleted'
    And the last request changed pod "web" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+1s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 1    |
      | /metadata/generation                 | 1        | 2    |
    And pod "web" is terminating

  @real-kubectl-differential
  Scenario: --force with a positive --grace-period is refused by kubectl itself
    # kubectl DeleteOptions.Validate: the request is never sent.
    When I try to run `kubectl delete pod web --grace-period=3 --force`
    Then kubectl fails with "error: --force and --grace-period greater than 0 cannot be specified together"
    And no apiserver event "DELETE pods/web" happens
    And pod "web" exists
    And pod "web" has phase "Running"

  Scenario: a pod recreated under the same name starts while the old container still runs
    # The name is free as soon as the force delete returns, so the CREATE gets 201. The kubelet
    # tracks pods by UID: the new pod is ADDed while the old UID's container is still being
    # killed (it gets SIGKILL two seconds later).
    When I run `kubectl delete pod web --force`
    And the user creates pod "web" on node "node-1"
    Then the last request returns 201
    And pod "web" exists
    And pod "web" has phase "Running"
    When 5s pass
    Then these events happen in order:
      | at   | component | event                             |
      | T+0s | etcd      | DELETE /registry/pods/default/web |
      | T+0s | kubelet   | DELETE pods/web                   |
      | T+0s | runtime   | SIGTERM app                       |
      | T+0s | kubelet   | REMOVE pods/web                   |
      | T+0s | apiserver | CREATE pods/web                   |
      | T+0s | kubelet   | ADD pods/web                      |
      | T+2s | runtime   | SIGKILL app                       |
      | T+2s | runtime   | exited app code=137               |

  Scenario: a pod recreated under the same name is another pod: what was declared for the old one stays with it
    # The kubelet and the runtime know pods by UID; a name only finds the pod that has it now. The
    # old container still ignores SIGTERM and is killed at the 2-second floor; the new pod is a
    # plain one: its container dies of SIGTERM (143).
    When I run `kubectl delete pod web --force`
    And the user creates pod "web" on node "node-1"
    And 5s pass
    And the user deletes pod "web"
    And 5s pass
    Then these events happen in order:
      | at   | component | event               |
      | T+0s | runtime   | SIGTERM app         |
      | T+2s | runtime   | SIGKILL app         |
      | T+2s | runtime   | exited app code=137 |
      | T+5s | runtime   | SIGTERM app         |
      | T+5s | runtime   | exited app code=143 |
    And pod "web" is gone

  Scenario: while the old pod still exists, a graceful delete does not free the name
    # R34: CREATE of a name whose object is terminating fails with 409 AlreadyExists, "object is
    # being deleted". Only when the kubelet's final DELETE has removed it can the name be reused.
    When the user deletes pod "web"
    And the user creates pod "web" on node "node-1"
    Then the last request fails with 409 AlreadyExists saying "object is being deleted"
    And pod "web" is terminating
    When 31s pass
    And the user creates pod "web" on node "node-1"
    Then the last request returns 201
    And these events happen in order:
      | at    | component | event                             |
      | T+0s  | apiserver | CREATE pods/web                   |
      | T+30s | runtime   | SIGKILL app                       |
      | T+31s | etcd      | DELETE /registry/pods/default/web |
      | T+31s | apiserver | CREATE pods/web                   |

  Scenario: a force delete while the node is unreachable leaves the container running until the kubelet comes back
    # Nobody on the node hears about it (K46). When the kubelet relists after the outage, the pod
    # is simply missing: it only gets REMOVE, without deletionTimestamp, so the kill uses the
    # spec's 30s, not 1s (K44, timeline S9).
    Given node "node-1" is unreachable
    When I run `kubectl delete pod web --force`
    Then pod "web" is gone
    When 10m pass
    Then no runtime event "SIGTERM" happens
    When node "node-1" becomes reachable again
    And 1m passes
    Then these events happen in order:
      | at       | component | event                                      |
      | T+0s     | etcd      | DELETE /registry/pods/default/web          |
      | T+10m    | kubelet   | REMOVE pods/web                            |
      | T+10m    | kubelet   | SyncTerminatingPod pods/web gracePeriod=30 |
      | T+10m    | runtime   | SIGTERM app                                |
      | T+10m30s | runtime   | SIGKILL app                                |
    And no kubelet event "DELETE pods/web" happens

  Scenario: after a short outage the kubelet's watch resumes and replays the force delete
    # The reflector re-watches from the last resourceVersion it saw; within etcd's compaction
    # window (5 min) the apiserver replays what it missed: the MODIFIED that stamped grace 0 (a
    # DELETE op, so the kubelet kills with grace 1) and then the DELETED (REMOVE).
    Given node "node-1" is unreachable
    When I run `kubectl delete pod web --force`
    And 30s pass
    And node "node-1" becomes reachable again
    And 5s pass
    Then these events happen in order:
      | at    | component | event                                     |
      | T+30s | kubelet   | watch resumed                             |
      | T+30s | kubelet   | DELETE pods/web                           |
      | T+30s | kubelet   | SyncTerminatingPod pods/web gracePeriod=1 |
      | T+30s | runtime   | SIGTERM app                               |
      | T+30s | kubelet   | REMOVE pods/web                           |
      | T+32s | runtime   | SIGKILL app                               |
