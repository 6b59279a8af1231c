@versions
Feature: The deletion flow the source article walks through, on v1.26 and on v1.33
  The article this project started from follows a pod's deletion through the kubelet of v1.26 and
  earlier: the status manager's canBeDeleted asks PodResourcesAreReclaimed (no container can run,
  none is reported running, the volumes and the pod's cgroup are gone) and nothing about the
  phase, so the final DELETE (grace 0, UID precondition) goes out while status.phase is still
  Running, and the deletionTimestamp moves back to the first request's time. Since v1.27 the
  kubelet first writes a terminal phase and canBeDeleted also waits for podIsFinished (set at the
  end of SyncTerminatedPod); since v1.33 the apiserver stamps the final DELETE with the time it is
  sent (V1). The two scenarios below are the same steps on each release; the timeline's
  "resources reclaimed" event names which check canBeDeleted made.

  Scenario: v1.26 — PodResourcesAreReclaimed, no terminal phase, deletionTimestamp back to T+0
    # The status PATCH at T+0 carries the terminated container, not a phase: the pod stays Running.
    Given Kubernetes v1.26
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And these events happen in order:
      | at   | component | event                                                   |
      | T+0s | apiserver | DELETE pods/web propagationPolicy=Background            |
      | T+0s | kubelet   | SyncTerminatingPod pods/web                             |
      | T+0s | runtime   | SIGTERM app                                             |
      | T+0s | apiserver | PATCH pods/web/status                                   |
      | T+1s | kubelet   | SyncTerminatedPod pods/web                              |
      | T+1s | status    | resources reclaimed pods/web                            |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
    And pod "web" was removed with fields:
      | path                                 | value     |
      | /status/phase                        | "Running" |
      | /metadata/deletionTimestamp          | T+0s      |
      | /metadata/deletionGracePeriodSeconds | 0         |
      | /metadata/generation                 | <absent>  |

  Scenario: v1.33 — terminal phase first, podIsFinished, and the final DELETE stamped with its own time
    Given Kubernetes v1.33
    And a node "node-1"
    And a pod "web" running on node "node-1"
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And these events happen in order:
      | at   | component | event                                                   |
      | T+0s | apiserver | DELETE pods/web propagationPolicy=Background            |
      | T+0s | kubelet   | SyncTerminatingPod pods/web                             |
      | T+0s | runtime   | SIGTERM app                                             |
      | T+0s | apiserver | PATCH pods/web/status                                   |
      | T+1s | kubelet   | SyncTerminatedPod pods/web                              |
      | T+1s | status    | resources reclaimed pods/web                            |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
    And pod "web" was removed with fields:
      | path                                 | value    |
      | /status/phase                        | "Failed" |
      | /metadata/deletionTimestamp          | T+1s     |
      | /metadata/deletionGracePeriodSeconds | 0        |
      | /metadata/generation                 | 2        |
