@graceful
Feature: Graceful deletion of a pod
  Deleting a running pod is a conversation, not a single write. The user's DELETE only stamps the
  pod with a deletionTimestamp and a deletionGracePeriodSeconds (the pod is now "Terminating");
  the kubelet on the pod's node sees that update, runs the preStop hooks, sends SIGTERM, and
  SIGKILLs whatever still runs when the grace period is over. When the containers are gone, the
  volumes unmounted and a terminal phase (Failed or Succeeded) written, the kubelet's status
  manager sends a second DELETE, with grace 0 and a UID precondition, and only that one removes
  the pod from etcd. Nothing on the server side enforces the deadline: a pod past its
  deletionTimestamp stays until someone sends that final DELETE.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  # --- the flow end to end ------------------------------------------------------------------

  Scenario: the first DELETE only stamps deletionTimestamp and deletionGracePeriodSeconds
    # rest.BeforeDelete + Store.updateForGracefulDeletionAndFinalizers (apiserver R12, R14):
    # grace 30 comes from spec.terminationGracePeriodSeconds; the pod is updated, not removed.
    When the user deletes pod "web"
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path                                 | from     | to    |
      | /metadata/deletionTimestamp          | <absent> | T+30s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 30    |
      | /metadata/generation                 | 1        | 2     |
    And pod "web" is terminating

  Scenario: the kubelet kills the container, reports Failed, and sends the final DELETE
    # Timeline S1: the default container dies of SIGTERM (143), so the pod ends
    # Failed; canBeDeleted (K36) then holds and the status manager's DELETE removes the pod.
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And kubectl prints 'pod "web" deleted'
    And these events happen in order:
      | at   | component | event                                                   |
      | T+0s | apiserver | DELETE pods/web propagationPolicy=Background            |
      | T+0s | kubelet   | DELETE pods/web                                         |
      | T+0s | kubelet   | SyncTerminatingPod pods/web                             |
      | T+0s | runtime   | SIGTERM app                                             |
      | T+0s | runtime   | exited app code=143                                     |
      | T+1s | kubelet   | SyncTerminatedPod pods/web                              |
      | T+1s | status    | resources reclaimed pods/web                            |
      | T+1s | status    | DELETE pods/web                                         |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
      | T+1s | etcd      | DELETE /registry/pods/default/web                       |
      | T+1s | kubelet   | REMOVE pods/web                                         |

  Scenario: what the API sees: one stamping write, one status write, then the kubelet's DELETE
    # Every write of the flow, nothing left out (apiserver R59, "graceful, no finalizers"):
    # the terminal status goes through pods/status first, in one PATCH (K33: SyncTerminatingPod's
    # last status, generated with podIsTerminal, is merged by the status manager's goroutine after
    # completeTerminating: containers terminated and phase Failed together), and the kubelet's DELETE is an R23
    # shortening to 0: one more PUT (deletionTimestamp = the time it is sent since v1.33, grace 0), then the removal.
    When I run `kubectl delete pod web`
    Then these events happen in exactly this order:
      | at   | component | event                                                   |
      | T+0s | apiserver | DELETE pods/web propagationPolicy=Background            |
      | T+0s | etcd      | PUT /registry/pods/default/web                          |
      | T+0s | apiserver | PATCH pods/web/status                                   |
      | T+0s | etcd      | PUT /registry/pods/default/web                          |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
      | T+1s | etcd      | PUT /registry/pods/default/web                          |
      | T+1s | etcd      | DELETE /registry/pods/default/web                       |

  Scenario: the kubelet sees the deletion twice, then the removal
    # config.go podStorage.merge (K10): the user's MODIFIED and the kubelet's own grace-0
    # MODIFIED both change the deletion fields, so each gives a DELETE op; DELETED gives REMOVE.
    When I run `kubectl delete pod web`
    Then these events happen in order:
      | component | event                                                   |
      | kubelet   | DELETE pods/web                                         |
      | kubelet   | SyncTerminatingPod pods/web                             |
      | kubelet   | SyncTerminatedPod pods/web                              |
      | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
      | kubelet   | DELETE pods/web                                         |
      | kubelet   | REMOVE pods/web                                         |

  Scenario: a grace-0 DELETE of a terminating pod stamps the time it is sent, never a time in the past
    # This is the request the kubelet sends at the end (apiserver R23, R26): the old
    # deletionTimestamp minus the old grace plus the new grace is T+0 here, already in the past;
    # since v1.33 (rest.BeforeDelete, kubernetes#122646) the time of the request is stored instead
    # (up to v1.32: T+0, see versions.feature). With no finalizers the pod is removed in the same request.
    Given container "app" of pod "web" ignores SIGTERM
    When the user deletes pod "web"
    And 10s pass
    And the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 0
      """
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path                                 | from  | to    |
      | /metadata/deletionTimestamp          | T+30s | T+10s |
      | /metadata/deletionGracePeriodSeconds | 30    | 0     |
    And pod "web" is gone
    And these events happen in exactly this order:
      | at    | component | event                                |
      | T+10s | apiserver | DELETE pods/web gracePeriodSeconds=0 |
      | T+10s | etcd      | PUT /registry/pods/default/web       |
      | T+10s | watch     | MODIFIED pods/web                    |
      | T+10s | etcd      | DELETE /registry/pods/default/web    |
      | T+10s | watch     | DELETED pods/web                     |

  # --- how the containers stop --------------------------------------------------------------

  Scenario: a container that ignores SIGTERM is killed with SIGKILL when the grace period ends
    # kuberuntime killContainer / CRI StopContainer(30) (K27-K29, timeline S2): exit 137, and any
    # non-zero exit of a regular container makes the pod Failed (getPhase, K32). The finalizer
    # only keeps the object around after the kubelet's DELETE so that its last status can be read.
    Given container "app" of pod "web" ignores SIGTERM
    When a controller adds finalizer "example.com/inspect" to pod "web"
    And the user deletes pod "web"
    And 40s pass
    Then these events happen in order:
      | at    | component | event                                |
      | T+0s  | runtime   | SIGTERM app                          |
      | T+30s | runtime   | SIGKILL app                          |
      | T+30s | runtime   | exited app code=137                  |
      | T+31s | kubelet   | SyncTerminatedPod pods/web           |
      | T+31s | status    | DELETE pods/web gracePeriodSeconds=0 |
    And pod "web" has fields:
      | path                                                  | value    |
      | /status/phase                                         | "Failed" |
      | /status/containerStatuses/0/state/terminated/exitCode | 137      |
      | /status/containerStatuses/0/state/terminated/reason   | "Error"  |

  Scenario: a container that handles SIGTERM and exits 0 after 5s makes the pod Succeeded
    # K29/K32: a clean exit 0 of every regular container gives phase Succeeded.
    Given container "app" of pod "web" exits 5s after SIGTERM
    When a controller adds finalizer "example.com/inspect" to pod "web"
    And the user deletes pod "web"
    And 10s pass
    Then these events happen in order:
      | at   | component | event                                |
      | T+0s | runtime   | SIGTERM app                          |
      | T+5s | runtime   | exited app code=0                    |
      | T+6s | status    | DELETE pods/web gracePeriodSeconds=0 |
    And no runtime event "SIGKILL" happens
    And pod "web" has fields:
      | path                                                  | value       |
      | /status/phase                                         | "Succeeded" |
      | /status/containerStatuses/0/state/terminated/exitCode | 0           |
      | /status/containerStatuses/0/state/terminated/reason   | "Completed" |

  Scenario: a container that exits 1 after SIGTERM makes the pod Failed
    # K29/K32: a regular container that ends with a non-zero code gives phase Failed; the runtime
    # reports reason Error for a non-zero exit.
    Given container "app" of pod "web" exits 5s after SIGTERM with code 1
    When a controller adds finalizer "example.com/inspect" to pod "web"
    And the user deletes pod "web"
    And 10s pass
    Then these events happen in order:
      | at   | component | event                                |
      | T+0s | runtime   | SIGTERM app                          |
      | T+5s | runtime   | exited app code=1                    |
      | T+6s | status    | DELETE pods/web gracePeriodSeconds=0 |
    And no runtime event "SIGKILL" happens
    And pod "web" has fields:
      | path                                                  | value    |
      | /status/phase                                         | "Failed" |
      | /status/containerStatuses/0/state/terminated/exitCode | 1        |
      | /status/containerStatuses/0/state/terminated/reason   | "Error"  |

  Scenario: a Failed pod reports Ready=False with reason PodFailed
    # pkg/kubelet/status/generate.go GenerateContainersReadyCondition / GeneratePodReadyCondition
    # return generate*ConditionForTerminalPhase for phase Failed: status False, reason PodFailed,
    # no message (K35).
    Given container "app" of pod "web" ignores SIGTERM
    When a controller adds finalizer "example.com/inspect" to pod "web"
    And the user deletes pod "web"
    And 40s pass
    Then pod "web" has fields:
      | path                         | value             |
      | /status/phase                | "Failed"          |
      | /status/conditions/2/type    | "Ready"           |
      | /status/conditions/2/reason  | "PodFailed"       |
      | /status/conditions/2/message | <absent>          |
      | /status/conditions/3/type    | "ContainersReady" |
      | /status/conditions/3/reason  | "PodFailed"       |

  Scenario: a preStop hook runs first and eats into the grace period
    # executePreStopHook (K25, K28, timeline S3): the 10s hook runs inside the 30s grace, so
    # SIGTERM comes at T+10s and SIGKILL at T+10s + (30 - 10)s = T+30s, not T+40s.
    Given container "app" of pod "web" has a preStop hook that takes 10s
    And container "app" of pod "web" ignores SIGTERM
    When I run `kubectl delete pod web`
    Then these events happen in exactly this order:
      | at    | component | event                    |
      | T+0s  | runtime   | preStop app              |
      | T+10s | runtime   | SIGTERM app              |
      | T+30s | runtime   | SIGKILL app              |
      | T+30s | runtime   | exited app code=137      |
      | T+30s | runtime   | sandbox stopped pods/web |
    And pod "web" is gone

  # --- where the grace period comes from ----------------------------------------------------

  Scenario: without a grace period in the request the pod's terminationGracePeriodSeconds is used
    # pod strategy CheckGracefulDelete (apiserver R6, kubelet K1).
    Given a pod "batch" running on node "node-1" with:
      """
      spec:
        terminationGracePeriodSeconds: 60
      """
    And container "app" of pod "batch" ignores SIGTERM
    When I run `kubectl delete pod batch`
    Then the last request changed pod "batch" like this:
      | path                                 | from     | to    |
      | /metadata/deletionTimestamp          | <absent> | T+60s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 60    |
      | /metadata/generation                 | 1        | 2     |
    And these events happen in order:
      | at    | component | event                                        |
      | T+0s  | kubelet   | SyncTerminatingPod pods/batch gracePeriod=60 |
      | T+0s  | runtime   | SIGTERM app pods/batch                       |
      | T+60s | runtime   | SIGKILL app pods/batch                       |
      | T+61s | etcd      | DELETE /registry/pods/default/batch          |

  Scenario: kubectl --grace-period overrides the pod's terminationGracePeriodSeconds
    # kubectl sends gracePeriodSeconds=5 (K8); the request wins over the
    # spec (R6).
    Given container "app" of pod "web" ignores SIGTERM
    When I run `kubectl delete pod web --grace-period=5`
    Then the last request changed pod "web" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+5s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 5    |
      | /metadata/generation                 | 1        | 2    |
    And these events happen in order:
      | at   | component | event                                                             |
      | T+0s | apiserver | DELETE pods/web gracePeriodSeconds=5 propagationPolicy=Background |
      | T+0s | kubelet   | SyncTerminatingPod pods/web gracePeriod=5                         |
      | T+5s | runtime   | SIGKILL app                                                       |
      | T+6s | etcd      | DELETE /registry/pods/default/web                                 |

  Scenario: a grace period in DeleteOptions may be longer than the spec's
    # R6: the request's value is not capped by terminationGracePeriodSeconds.
    When the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 120
      """
    Then the last request changed pod "web" like this:
      | path                                 | from     | to     |
      | /metadata/deletionTimestamp          | <absent> | T+120s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 120    |
      | /metadata/generation                 | 1        | 2      |
    And these events happen in order:
      | component | event                                       |
      | kubelet   | SyncTerminatingPod pods/web gracePeriod=120 |

  # --- a second DELETE while terminating ----------------------------------------------------

  Scenario: a shorter grace period while terminating never moves deletionTimestamp into the past, and the running kill keeps its grace
    # rest.BeforeDelete (R23): old - old grace + new grace = T+5s, already in the past at T+10s;
    # since v1.33 (kubernetes#122646) that stores now, T+10s, with grace 1 (a graceful request
    # stays graceful; up to v1.32: T+5s and 5, see versions.feature). The kubelet lowers its grace
    # to 1s, but the StopContainer(30) already running is not interrupted (K20, timeline S11,
    # upstream issue #83916): SIGKILL stays at T+30s.
    Given container "app" of pod "web" ignores SIGTERM
    When the user deletes pod "web"
    And 10s pass
    And the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 5
      """
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path                                 | from  | to    |
      | /metadata/deletionTimestamp          | T+30s | T+10s |
      | /metadata/deletionGracePeriodSeconds | 30    | 1     |
    And pod "web" is terminating
    When 30s pass
    Then pod "web" is gone
    And these events happen in order:
      | at    | component | event                                |
      | T+0s  | runtime   | SIGTERM app                          |
      | T+10s | apiserver | DELETE pods/web gracePeriodSeconds=5 |
      | T+10s | kubelet   | DELETE pods/web                      |
      | T+30s | runtime   | SIGKILL app                          |
      | T+31s | etcd      | DELETE /registry/pods/default/web    |

  Scenario: a longer grace period while terminating changes nothing
    # R21: a request grace >= the stored one is "pending graceful": 200, no write, no event.
    When the user deletes pod "web"
    And the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 300
      """
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path | from | to |
    And pod "web" has fields:
      | path                                 | value |
      | /metadata/deletionGracePeriodSeconds | 30    |

  # --- pods that have nothing to stop -------------------------------------------------------

  Scenario: an unscheduled pod is removed at once
    # No node, so no kubelet that could confirm anything: the strategy forces grace 0 (R7), and
    # the one request writes the stamp (MODIFIED) and removes the pod (DELETED), R16.
    Given a pod "pending" that is not scheduled to any node
    When the user deletes pod "pending"
    Then the last request returns 200
    And the last request changed pod "pending" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+0s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 0    |
      | /metadata/generation                 | 1        | 2    |
    And pod "pending" is gone
    And these events happen in exactly this order:
      | at   | component | event                                 |
      | T+0s | apiserver | DELETE pods/pending                   |
      | T+0s | etcd      | PUT /registry/pods/default/pending    |
      | T+0s | watch     | MODIFIED pods/pending                 |
      | T+0s | etcd      | DELETE /registry/pods/default/pending |
      | T+0s | watch     | DELETED pods/pending                  |

  Scenario: a pod whose containers have completed is removed at once
    # Terminal phase (Succeeded) forces grace 0 (R8): nothing runs, so there is nothing to wait
    # for. The kubelet only learns of it afterwards and has nothing to kill.
    Given a pod "job" on node "node-1" whose containers have completed
    When the user deletes pod "job"
    Then the last request changed pod "job" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+0s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 0    |
      | /metadata/generation                 | 1        | 2    |
    And pod "job" is gone
    And these events happen in order:
      | at   | component | event                             |
      | T+0s | etcd      | PUT /registry/pods/default/job    |
      | T+0s | etcd      | DELETE /registry/pods/default/job |
      | T+0s | kubelet   | DELETE pods/job                   |
      | T+0s | kubelet   | REMOVE pods/job                   |
    And no runtime event "SIGTERM" happens
    And no status event "DELETE pods/job" happens

  Scenario: a controller's own status condition does not disturb the deletion
    # Every update, pods/status included, goes through Store.Update. While the pod still has
    # grace left (deletionGracePeriodSeconds > 0) a status write is an ordinary update — R28's
    # delete-during-update needs grace 0 — and the kubelet's final DELETE still removes the pod.
    When the user deletes pod "web"
    And a controller sets condition "example.com/Audited" of pod "web" to "True"
    Then the last request returns 200
    And pod "web" is terminating
    And the last request changed pod "web" like this:
      | path               | from  | to    |
      | /status/conditions | <any> | <any> |
    When the cluster settles
    Then pod "web" is gone

  Scenario: a pod created during the scenario from a manifest: its conditions and Kubernetes Events
    # The kubelet records one Normal "Killing" Event per container it stops. Ready is True with no
    # reason while the pod runs; the terminal status sets it False with reason PodFailed (143 from
    # SIGTERM, K32, K35). The finalizer keeps the pod after the kubelet's final DELETE, so its
    # status can be read.
    When the user creates pod "late" on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      spec:
        terminationGracePeriodSeconds: 5
        containers:
          - name: main
          - name: side
      """
    Then the last request returns 201
    When 10s pass
    Then pod "late" has condition "Ready" with status "True" and no reason
    And pod "late" has no condition "DisruptionTarget"
    And pod "late" has no event "Killing"
    When the user deletes pod "late"
    And 10s pass
    Then pod "late" is terminating
    And pod "late" has condition "Ready" with status "False" and reason "PodFailed"
    And pod "late" has condition "ContainersReady" with status "False"
    And pod "late" has 2 events "Killing"
    And pod "late" has a Normal event "Killing"
    And pod "late" has an event "Killing" saying "Stopping container side"
    And no runtime event "SIGKILL" happens between T+10s and T+20s
