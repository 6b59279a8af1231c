@node-shutdown
Feature: Graceful node shutdown kills pods without deleting them
  When systemd announces a shutdown, the kubelet's node shutdown manager (K51)
  reports the node not ready and kills the active pods by priority group: regular pods first, with
  min(spec grace, shutdownGracePeriod - shutdownGracePeriodCriticalPods), then critical pods
  (system-cluster-critical, system-node-critical) with the critical period. Each group is waited
  for at most its own period. Every kill goes through killPodNow (K52), whose status function makes
  the pod Failed with reason Terminated and a DisruptionTarget condition; the pods are never
  deleted from the API. Once the groups are done the machine powers off.

  Without a Given for the node, "shuts down gracefully" assumes a kubelet configured with
  shutdownGracePeriod 30s and shutdownGracePeriodCriticalPods 10s (upstream's default is 0: off).

  Background:
    Given a node "node-1"

  Scenario: a regular pod gets min(spec grace, 20s), ends Failed/Terminated and stays in the API
    Given a pod "web" running on node "node-1" with:
      """
      spec:
        terminationGracePeriodSeconds: 60
      """
    And container "app" of pod "web" ignores SIGTERM
    When node "node-1" shuts down gracefully
    And 1m passes
    Then these events happen in order:
      | at    | component | event                                                    |
      | T+0s  | kubelet   | node shutdown: shutdown event detected                   |
      | T+0s  | events    | NodeShutdown nodes/node-1                                |
      | T+0s  | kubelet   | node shutdown: killing priority group 0 (pods/web) within 20s |
      | T+0s  | kubelet   | killPodNow pods/web gracePeriod=20 (waits at most 30s)   |
      | T+0s  | kubelet   | SyncTerminatingPod pods/web gracePeriod=20               |
      | T+0s  | runtime   | SIGTERM app                                              |
      | T+20s | runtime   | SIGKILL app                                              |
      | T+20s | apiserver | PATCH pods/web/status                                    |
      | T+21s | kubelet   | SyncTerminatedPod pods/web                               |
      | T+22s | kubelet   | node node-1 powered off                                  |
    And pod "web" exists
    And pod "web" has fields:
      | path                        | value                                                       |
      | /metadata/deletionTimestamp | <absent>                                                    |
      | /status/phase               | "Failed"                                                    |
      | /status/reason              | "Terminated"                                                |
      | /status/message             | "Pod was terminated in response to imminent node shutdown." |
    And pod "web" has condition "DisruptionTarget" with status "True" and reason "TerminationByKubelet"
    And pod "web" has condition "Ready" with status "False" and reason "PodFailed"
    And no status event "DELETE pods/web" happens

  Scenario: critical pods are killed after the regular ones, with the critical period
    Given node "node-1" has a shutdown grace period of 20s with 5s for critical pods
    And a pod "web" running on node "node-1"
    And container "app" of pod "web" exits 3s after SIGTERM
    And a pod "dns" running on node "node-1" with:
      """
      spec:
        priorityClassName: system-cluster-critical
      """
    And container "app" of pod "dns" ignores SIGTERM
    When node "node-1" shuts down gracefully
    And 1m passes
    Then these events happen in order:
      | at    | component | event                                                                      |
      | T+0s  | kubelet   | node shutdown: killing priority group 0 (pods/web) within 15s              |
      | T+0s  | runtime   | SIGTERM app pods/web                                                       |
      | T+3s  | runtime   | exited app code=0 pods/web                                                 |
      | T+3s  | kubelet   | node shutdown: done waiting for all pods in priority group 0 to terminate  |
      | T+3s  | kubelet   | node shutdown: killing priority group 2000000000 (pods/dns) within 5s      |
      | T+3s  | kubelet   | SyncTerminatingPod pods/dns gracePeriod=5                                  |
      | T+3s  | runtime   | SIGTERM app pods/dns                                                       |
      | T+8s  | runtime   | SIGKILL app pods/dns                                                       |
      | T+9s  | kubelet   | SyncTerminatedPod pods/dns                                                 |
      | T+10s | kubelet   | node node-1 powered off                                                    |
    And pod "dns" has fields:
      | path           | value        |
      | /status/phase  | "Failed"     |
      | /status/reason | "Terminated" |
    And pod "dns" has condition "DisruptionTarget" with status "True" and reason "TerminationByKubelet"

  Scenario: a kill already running keeps its longer grace: killPodNow gives up with ExceededGracePeriod
    # The user's delete started a 60 s kill; the shutdown's shorter override cannot interrupt it
    # (#83916). killPodNow waits max(10, 1.5 x 10) = 15 s, records a Warning and returns an error,
    # while the critical group still runs. The machine then goes down with the pod Terminating:
    # nobody will send its final DELETE (K46).
    Given node "node-1" has a shutdown grace period of 30s with 20s for critical pods
    And a pod "web" running on node "node-1" with:
      """
      spec:
        terminationGracePeriodSeconds: 60
      """
    And container "app" of pod "web" ignores SIGTERM
    And a pod "agent" running on node "node-1" with:
      """
      spec:
        priorityClassName: system-node-critical
      """
    And container "app" of pod "agent" ignores SIGTERM
    When the user deletes pod "web"
    And node "node-1" shuts down gracefully
    And 2m pass
    Then these events happen in order:
      | at    | component | event                                                                        |
      | T+0s  | kubelet   | SyncTerminatingPod pods/web gracePeriod=60                                   |
      | T+0s  | kubelet   | killPodNow pods/web gracePeriod=10 (waits at most 15s)                       |
      | T+0s  | kubelet   | grace shortened pods/web to 10s                                              |
      | T+10s | kubelet   | node shutdown: pod killing time out for priority group 0 after 10s           |
      | T+10s | kubelet   | node shutdown: killing priority group 2000000000 (pods/agent) within 20s     |
      | T+15s | events    | ExceededGracePeriod pods/web: Container runtime did not kill the pod within specified grace period. |
      | T+15s | kubelet   | killPodNow pods/web: timeout waiting to kill pod after 15s                   |
      | T+30s | runtime   | SIGKILL app pods/agent                                                       |
      | T+32s | kubelet   | node node-1 powered off                                                      |
    And pod "web" has an event "ExceededGracePeriod"
    And pod "web" is terminating
    And no runtime event "SIGKILL app pods/web" happens
    And pod "agent" has condition "DisruptionTarget" with status "True" and reason "TerminationByKubelet"

  Scenario: the node reports NotReady while it shuts down, then stops heartbeating
    Given a pod "web" running on node "node-1"
    When node "node-1" shuts down gracefully
    And 2m pass
    Then these events happen in order:
      | at            | component     | event                                   |
      | T+0s          | apiserver     | PATCH nodes/node-1/status               |
      | T+0s..T+5s    | nodelifecycle | node node-1 taints +node.kubernetes.io/not-ready:NoSchedule |
      | T+2s..T+3s    | kubelet       | node node-1 powered off                 |
      | T+50s..T+70s  | nodelifecycle | node node-1 Ready=Unknown               |
    And pod "web" has phase "Failed"
    And pod "web" has condition "DisruptionTarget" with status "True" and reason "TerminationByKubelet"
