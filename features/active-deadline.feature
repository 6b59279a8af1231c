@active-deadline
Feature: A pod past its activeDeadlineSeconds is killed by its kubelet and left Failed
  spec.activeDeadlineSeconds counts from the pod's status.startTime (K70). At the first sync tick
  (every second) at or after startTime + activeDeadlineSeconds the kubelet's active deadline handler
  has the pod synced; generating its status makes it Failed with reason DeadlineExceeded and the
  message "Pod was active on the node longer than the specified deadline" (a Normal Event says the
  same); SyncPod reports the pod terminal, and its worker kills the containers with the pod's own
  grace period. Nothing deletes the pod: it stays in the API, Failed, like a Job's pod that ran out
  of time. The pods here have been running for a minute at T+0.

  Background:
    Given a node "node-1"

  Scenario: the deadline passes: SIGTERM with the pod's grace, then Failed/DeadlineExceeded, and the pod stays
    Given a pod "batch" running on node "node-1" with:
      """
      spec:
        activeDeadlineSeconds: 90
        terminationGracePeriodSeconds: 20
      """
    And container "app" of pod "batch" exits 5s after SIGTERM
    When 1m passes
    Then these events happen in order:
      | at    | component | event                                                                        |
      | T+30s | kubelet   | pods/batch is past its active deadline (activeDeadlineSeconds=90): sync      |
      | T+30s | events    | DeadlineExceeded pods/batch: Pod was active on the node longer than the specified deadline |
      | T+30s | kubelet   | terminating pods/batch (pod is terminal)                                     |
      | T+31s | kubelet   | SyncTerminatingPod pods/batch gracePeriod=20 (the pod's own)                 |
      | T+31s | runtime   | SIGTERM app                                                                  |
      | T+36s | runtime   | exited app code=0                                                            |
      | T+36s | apiserver | PATCH pods/batch/status                                                      |
      | T+37s | kubelet   | SyncTerminatedPod pods/batch                                                 |
    And pod "batch" exists
    And pod "batch" has fields:
      | path                        | value                                                            |
      | /metadata/deletionTimestamp | <absent>                                                         |
      | /status/phase               | "Failed"                                                         |
      | /status/reason              | "DeadlineExceeded"                                               |
      | /status/message             | "Pod was active on the node longer than the specified deadline" |
    And pod "batch" has condition "Ready" with status "False" and reason "PodFailed"
    And pod "batch" has a Normal event "DeadlineExceeded"
    And no status event "DELETE pods/batch" happens

  Scenario: a container that ignores SIGTERM is killed at the end of the grace period
    Given a pod "batch" running on node "node-1" with:
      """
      spec:
        activeDeadlineSeconds: 75
        terminationGracePeriodSeconds: 10
      """
    And container "app" of pod "batch" ignores SIGTERM
    When 1m passes
    Then these events happen in order:
      | at    | component | event                                                                   |
      | T+15s | kubelet   | pods/batch is past its active deadline (activeDeadlineSeconds=75): sync |
      | T+16s | runtime   | SIGTERM app                                                             |
      | T+26s | runtime   | SIGKILL app                                                             |
      | T+26s | runtime   | exited app code=137                                                     |
    And pod "batch" has phase "Failed"

  Scenario: deleting the Failed pod afterwards removes it at once
    Given a pod "batch" running on node "node-1" with:
      """
      spec:
        activeDeadlineSeconds: 70
      """
    When 1m passes
    And the user deletes pod "batch"
    And the cluster settles
    Then pod "batch" is gone
