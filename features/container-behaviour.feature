@containers
Feature: What the containers and volumes of a deleted pod do
  How a pod's deletion goes depends on what its containers and volumes do on the node: the exit
  code a process chooses after SIGTERM, a preStop hook that fails, an image still being pulled or
  one that cannot be pulled (ErrImagePull, then ImagePullBackOff), a container that crashes and is
  restarted (CrashLoopBackOff), an unmount that fails (and is retried) or one that never returns.

  Background:
    Given a node "node-1"

  Scenario: the exit code after SIGTERM decides the phase: 3 gives Failed, with reason Error
    # The runtime reports the process's own exit code (K29); getPhase with podIsTerminal (K32) gives
    # Failed for any non-zero code of a regular container, Succeeded only if every one exited 0.
    Given a pod "web" running on node "node-1"
    And container "app" of pod "web" exits with code 3 5s after SIGTERM
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                          | value   |
      | /status/phase                                 | "Failed" |
      | /status/containerStatuses/0/state/terminated/exitCode | 3 |
      | /status/containerStatuses/0/state/terminated/reason   | "Error" |
    And these events happen in order:
      | at   | component | event               |
      | T+0s | runtime   | SIGTERM app         |
      | T+5s | runtime   | exited app code=3   |
      | T+5s | apiserver | PATCH pods/web/status |
      | T+6s | runtime   | removed app         |
      | T+6s | status    | DELETE pods/web     |

  Scenario: a process that exits 143 by itself after SIGTERM is not told apart from one SIGTERM killed
    Given a pod "web" running on node "node-1"
    And container "app" of pod "web" exits with code 143 2s after SIGTERM
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path          | value    |
      | /status/phase | "Failed" |
    And these events happen in order:
      | at   | component | event               |
      | T+2s | runtime   | exited app code=143 |

  Scenario: a preStop hook that fails: a Warning event, and SIGTERM follows at once
    # executePreStopHook (K25): the hook's error is recorded as FailedPreStopHook "PreStopHook
    # failed" (without its output, which could hold secrets); the kill goes on with the grace left.
    Given a pod "web" running on node "node-1"
    And container "app" of pod "web" has a preStop hook that fails after 3s
    And container "app" of pod "web" ignores SIGTERM
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" has an event "FailedPreStopHook"
    And these events happen in order:
      | at    | component | event                                        |
      | T+0s  | events    | Killing pods/web: Stopping container app     |
      | T+0s  | runtime   | preStop app                                  |
      | T+3s  | events    | FailedPreStopHook pods/web: PreStopHook failed |
      | T+3s  | runtime   | SIGTERM app                                  |
      | T+30s | runtime   | SIGKILL app                                  |
      | T+31s | status    | DELETE pods/web                              |

  Scenario: deleted while its image is still being pulled: the pull is not cancelled, the container starts and is killed
    # SyncPod runs its runtime calls without the pod worker's context (TODO #113606), so the pull
    # started before T+0 completes; the container starts, then SyncTerminatingPod kills it (S12).
    Given a pod "web" running on node "node-1"
    And the image of container "app" of pod "web" takes 90s to pull
    Then pod "web" has phase "Pending"
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And these events happen in order:
      | at     | component | event                                    |
      | T+0s   | kubelet   | terminating pods/web (deletionTimestamp set) |
      | T+30s  | runtime   | started app                              |
      | T+31s  | kubelet   | SyncTerminatingPod pods/web gracePeriod=30 |
      | T+31s  | runtime   | SIGTERM app                              |
      | T+32s  | status    | DELETE pods/web                          |

  Scenario: an image that cannot be pulled: ErrImagePull, then ImagePullBackOff while the back-off lasts
    # K54: the pod has been failing for a minute: its second failed pull (T-48s) set a 20 s back-off,
    # so the retry at T-38s did not pull (BackOff event, no error); the next sync is the 1 min
    # resync at T+22s, which pulls again; after that failure the back-off is 40 s.
    Given a pod "web" running on node "node-1"
    And the image of container "app" of pod "web" cannot be pulled
    When 30s pass
    Then pod "web" has fields:
      | path                                              | value              |
      | /status/phase                                     | "Pending"          |
      | /status/containerStatuses/0/state/waiting/reason  | "ImagePullBackOff" |
      | /status/containerStatuses/0/state/waiting/message | "Back-off pulling image \"registry.k8s.io/e2e-test-images/agnhost:2.53\"" |
    And these events happen in order:
      | at     | component | event                                 |
      | T+22s  | runtime   | pulling image for app pods/web        |
      | T+23s  | runtime   | pull failed app pods/web: ErrImagePull |
    When 15s pass
    Then pod "web" has fields:
      | path                                             | value          |
      | /status/containerStatuses/0/state/waiting/reason | "ErrImagePull" |
    And pod "web" has 2 events "BackOff"

  Scenario: deleted while its image cannot be pulled: nothing to kill, Pending becomes Failed
    # K54: each failed pull shows ErrImagePull; while the image's back-off (10 s doubling) lasts the
    # kubelet does not pull and shows ImagePullBackOff. The container was never created:
    # SyncTerminatingPod only stops the sandbox; TerminatePod (K34) reports the Waiting container
    # as ContainerStatusUnknown 137 and the phase Failed.
    Given a pod "web" running on node "node-1"
    And the image of container "app" of pod "web" cannot be pulled
    Then pod "web" has phase "Pending"
    And pod "web" has fields:
      | path                                                | value          |
      | /status/containerStatuses/0/state/waiting/reason    | "ErrImagePull" |
    And pod "web" has an event "BackOff" saying "Back-off pulling image \"registry.k8s.io/e2e-test-images/agnhost:2.53\""
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                                  | value                    |
      | /status/phase                                         | "Failed"                 |
      | /status/containerStatuses/0/state/terminated/exitCode | 137                      |
      | /status/containerStatuses/0/state/terminated/reason   | "ContainerStatusUnknown" |
    And no runtime event "SIGTERM" happens

  Scenario: a container that crashes is restarted, then held back in CrashLoopBackOff
    # K55: the pod started at T-60s; app crashed at T-55s and was restarted at the next sync; it
    # crashed again at T-49s, less than its 10 s back-off after that finish, so the sync at T-48s
    # held it back (not a sync error: the next sync is the 1 min resync, at T+12s). The status a
    # sync writes shows what the previous one decided: CrashLoopBackOff appears at T+12s, just
    # before that sync restarts the container. Each restart raises restartCount and keeps the run
    # that ended as lastState.
    Given a pod "web" running on node "node-1"
    And container "app" of pod "web" exits with code 1 after running 5s
    Then pod "web" has fields:
      | path                                                      | value   |
      | /status/phase                                             | "Running" |
      | /status/containerStatuses/0/restartCount                  | 1       |
      | /status/containerStatuses/0/state/terminated/exitCode     | 1       |
      | /status/containerStatuses/0/lastState/terminated/exitCode | 1       |
      | /status/containerStatuses/0/lastState/terminated/reason   | "Error" |
    And pod "web" has a Warning event "BackOff"
    When 12s pass
    Then pod "web" has fields:
      | path                                               | value              |
      | /status/containerStatuses/0/restartCount           | 1                  |
      | /status/containerStatuses/0/state/waiting/reason   | "CrashLoopBackOff" |
    When 3s pass
    Then pod "web" has fields:
      | path                                     | value |
      | /status/containerStatuses/0/restartCount | 2     |
      | /status/containerStatuses/0/ready        | true  |
    When 5s pass
    Then these events happen in order:
      | at     | component | event                                          |
      | T+12s  | runtime   | started app pods/web                           |
      | T+17s  | runtime   | exited app code=1 pods/web                     |
      | T+18s  | events    | BackOff pods/web: Back-off restarting failed container app |

  Scenario: deleted in CrashLoopBackOff: nothing runs, nothing is restarted, the pod is Failed
    # A deleted pod's containers are never restarted (ShouldContainerBeRestarted); its worker goes
    # to SyncTerminatingPod at once, which only stops the sandbox (K55, K31).
    Given a pod "web" running on node "node-1"
    And container "app" of pod "web" exits with code 1 after running 5s
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                                  | value   |
      | /status/phase                                         | "Failed" |
      | /status/containerStatuses/0/restartCount              | 1       |
      | /status/containerStatuses/0/state/terminated/exitCode | 1       |
    And no runtime event "SIGTERM" happens
    And no runtime event "started app" happens

  Scenario: an unmount that fails is retried with back-off; the pod stays Terminating
    # K39, K40: the reconciler retries a failed TearDown after 0.5s, doubling; SyncTerminatedPod's
    # WaitForUnmount gives up after 2m3s and the pod worker retries 10s later, for ever.
    Given a pod "web" running on node "node-1" with:
      """
      spec:
        volumes: [{name: data, emptyDir: {}}]
      """
    And volume "data" of pod "web" cannot be unmounted
    When the user deletes pod "web"
    And 5m pass
    Then pod "web" is terminating
    And pod "web" has phase "Failed"
    And these events happen in order:
      | at        | component | event                                |
      | T+0s      | volumes   | unmount data                         |
      | T+0s      | volumes   | unmount failed data pods/web: retry in 0.5s |
      | T+0s..T+1s | volumes  | unmount data                         |
      | T+2m4s    | kubelet   | sync error pods/web: timed out waiting for volumes to unmount |

  Scenario: an unmount that never returns is not retried: one attempt, then the kubelet waits for ever
    # The operation executor runs one operation per volume at a time (nestedpendingoperations):
    # while TearDown hangs, the reconciler starts no other, so there are no failures and no
    # back-off — only SyncTerminatedPod's WaitForUnmount times out (2m3s) and is retried.
    Given a pod "web" running on node "node-1" with:
      """
      spec:
        volumes: [{name: data, emptyDir: {}}]
      """
    And volume "data" of pod "web" hangs when unmounted
    When the user deletes pod "web"
    And 5m pass
    Then pod "web" is terminating
    And pod "web" has phase "Failed"
    And no volumes event "unmount failed" happens
    And no volumes event "unmounted" happens
    And these events happen in order:
      | at     | component | event                                                         |
      | T+0s   | volumes   | unmount data                                                  |
      | T+2m4s | kubelet   | sync error pods/web: timed out waiting for volumes to unmount |
      | T+2m14s | kubelet  | SyncTerminatedPod pods/web                                    |
