@init-containers
Feature: Regular init containers and the deletion of their pod
  Init containers without `restartPolicy: Always` run one at a time, in spec order, each to
  completion, before any app container starts; the pod is Pending meanwhile and kubectl shows
  Init:N/M. How a deletion goes depends on where initialization is: done (the init containers stay
  reported as Completed to the end), still running (the init container is what gets killed), or
  failed (the pod is Failed with restartPolicy Never, or crash-looping in Pending otherwise).

  Scenario: the init container completes, then the app runs; a graceful delete keeps setup Completed to the end
    # K56: the pod started at T-60s; setup runs 90 s, so it exits 0 at T+30s; the sync after the
    # PLEG saw it starts app. K57: Pending and Initialized False until then.
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        initContainers: [{name: setup}]
      """
    And init container "setup" of pod "web" completes after 90s
    Then pod "web" has phase "Pending"
    And pod "web" has condition "Initialized" with status "False" and reason "ContainersNotInitialized"
    And pod "web" has fields:
      | path                                               | value            |
      | /status/initContainerStatuses/0/started            | true             |
      | /status/initContainerStatuses/0/ready              | false            |
      | /status/containerStatuses/0/state/waiting/reason   | "PodInitializing" |
    When 35s pass
    Then pod "web" has phase "Running"
    And pod "web" has condition "Initialized" with status "True" and no reason
    And these events happen in order:
      | at    | component | event                      |
      | T+30s | runtime   | exited setup code=0        |
      | T+31s | runtime   | started app                |
      | T+32s | apiserver | PATCH pods/web/status      |
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                                      | value       |
      | /status/phase                                             | "Failed"    |
      | /status/initContainerStatuses/0/state/terminated/exitCode | 0           |
      | /status/initContainerStatuses/0/state/terminated/reason   | "Completed" |
      | /status/initContainerStatuses/0/ready                     | true        |
      | /status/containerStatuses/0/state/terminated/exitCode     | 143         |
    And these events happen in order:
      | at    | component | event                                    |
      | T+35s | apiserver | DELETE pods/web                          |
      | T+35s | events    | Killing pods/web: Stopping container app |
      | T+35s | runtime   | exited app code=143                      |
      | T+35s | apiserver | PATCH pods/web/status                    |
      | T+36s | runtime   | removed setup                            |
      | T+36s | status    | DELETE pods/web                          |
    And no runtime event "SIGTERM setup" happens

  Scenario: deleted while the init container runs: setup is killed with the pod's grace, Pending turns Failed, then the final DELETE
    # K58: SyncTerminatingPod kills what runs, here setup (no preStop: the API forbids lifecycle on
    # a regular init container). The status after the kill has setup terminated and app still
    # waiting: getPhase gives Pending (a failed init container makes a pod Failed only with
    # restartPolicy Never). TerminatePod turns it into Failed, leaving app waiting (the pod never
    # initialized, K34), and the status manager sends the final DELETE.
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        initContainers: [{name: setup}]
      """
    And init container "setup" of pod "web" completes after 10m
    And container "setup" of pod "web" ignores SIGTERM
    When I run `kubectl delete pod web --wait=false`
    And 30s pass
    Then these events happen in order:
      | at    | component | event                                      |
      | T+0s  | events    | Killing pods/web: Stopping container setup |
      | T+0s  | runtime   | SIGTERM setup                              |
      | T+30s | runtime   | SIGKILL setup                              |
      | T+30s | runtime   | exited setup code=137                      |
      | T+30s | apiserver | PATCH pods/web/status                      |
    And pod "web" has fields:
      | path                                                      | value             |
      | /status/phase                                             | "Pending"         |
      | /status/initContainerStatuses/0/state/terminated/exitCode | 137               |
      | /status/initContainerStatuses/0/state/terminated/reason   | "Error"           |
      | /status/containerStatuses/0/state/waiting/reason          | "PodInitializing" |
    And pod "web" has condition "Initialized" with status "False" and reason "ContainersNotInitialized"
    When 5s pass
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                                      | value             |
      | /status/phase                                             | "Failed"          |
      | /status/initContainerStatuses/0/state/terminated/exitCode | 137               |
      | /status/containerStatuses/0/state/waiting/reason          | "PodInitializing" |
    And these events happen in order:
      | at    | component | event                      |
      | T+31s | kubelet   | SyncTerminatedPod pods/web |
      | T+31s | status    | DELETE pods/web            |
    And no runtime event "started app" happens

  Scenario: the init container fails with restartPolicy Never: the pod is Failed and nothing else starts; a delete removes it at once
    # K57: getPhase makes the pod Failed as soon as an init container failed with restartPolicy
    # Never. SyncPod sees the terminal phase and the pod worker terminates the pod (only the
    # sandbox is left to stop); the pod stays in the API, Failed, until someone deletes it — and a
    # pod in a terminal phase is deleted at once (grace 0, R8).
    Given a node "node-1"
    And a pod "job" running on node "node-1" with:
      """
      spec:
        restartPolicy: Never
        initContainers: [{name: migrate}]
      """
    And init container "migrate" of pod "job" fails with exit code 2 after 70s
    When 15s pass
    Then pod "job" has phase "Failed"
    And pod "job" has fields:
      | path                                                      | value             |
      | /status/initContainerStatuses/0/state/terminated/exitCode | 2                 |
      | /status/initContainerStatuses/0/state/terminated/reason   | "Error"           |
      | /status/containerStatuses/0/state/waiting/reason          | "PodInitializing" |
    And pod "job" has condition "Initialized" with status "False" and reason "ContainersNotInitialized"
    And pod "job" has condition "Ready" with status "False" and reason "PodFailed"
    And these events happen in order:
      | at    | component | event                                  |
      | T+10s | runtime   | exited migrate code=2                  |
      | T+11s | kubelet   | terminating pods/job (pod is terminal) |
      | T+12s | runtime   | sandbox stopped pods/job               |
      | T+13s | kubelet   | SyncTerminatedPod pods/job             |
    And no runtime event "started app pods/job" happens
    And no status event "DELETE pods/job" happens
    When I run `kubectl delete pod job`
    Then pod "job" is gone
    And the last request changed pod "job" like this:
      | path                                 | from     | to    |
      | /metadata/deletionTimestamp          | <absent> | T+15s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 0     |
      | /metadata/generation                 | 1        | 2     |

  Scenario: the init container keeps failing with restartPolicy Always: Init:CrashLoopBackOff, then a delete during the back-off
    # K56, K55: setup fails after 10 s every run. Started at T-60s, it failed at T-50s and was
    # restarted at once; it failed again at T-39s, within its 10 s back-off, so the next sync held
    # it back (Warning BackOff; the status a sync writes shows CrashLoopBackOff from the sync after).
    # The pod stays Pending and app never starts. Deleted, nothing runs: no SIGTERM, no restart; the
    # last run shows as terminated, and TerminatePod makes the pod Failed.
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        initContainers: [{name: setup}]
      """
    And init container "setup" of pod "web" fails with exit code 1 after 10s
    Then pod "web" has phase "Pending"
    And pod "web" has an event "BackOff" saying "Back-off restarting failed container setup in pod web_default"
    And pod "web" has fields:
      | path                                                      | value              |
      | /status/initContainerStatuses/0/restartCount              | 1                  |
      | /status/initContainerStatuses/0/lastState/terminated/exitCode | 1              |
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                                      | value             |
      | /status/phase                                             | "Failed"          |
      | /status/initContainerStatuses/0/restartCount              | 1                 |
      | /status/initContainerStatuses/0/state/terminated/exitCode | 1                 |
      | /status/containerStatuses/0/state/waiting/reason          | "PodInitializing" |
    And no runtime event "SIGTERM" happens
    And no runtime event "started" happens

  Scenario Outline: deleted mid-init on <release>: the phase the pod leaves the API with
    # V20: from v1.27 TerminatePod turns the Pending phase into Failed before the final DELETE; a
    # v1.26 kubelet deletes as soon as PodResourcesAreReclaimed, the pod still Pending.
    Given Kubernetes <release>
    And a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        initContainers: [{name: setup}]
      """
    And init container "setup" of pod "web" completes after 10m
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And pod "web" was removed with fields:
      | path                                                      | value   |
      | /status/phase                                             | <phase> |
      | /status/initContainerStatuses/0/state/terminated/exitCode | 143     |
    And these events happen in order:
      | at   | component | event               |
      | T+0s | runtime   | SIGTERM setup       |
      | T+1s | status    | DELETE pods/web     |

    Examples:
      | release | phase     |
      | v1.26   | "Pending" |
      | v1.27   | "Failed"  |
      | v1.33   | "Failed"  |
