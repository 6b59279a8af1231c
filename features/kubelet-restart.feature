@kubelet-restart
Feature: The kubelet restarts while a pod terminates
  No pod-worker state survives a kubelet restart (K45, timeline S10). The new
  kubelet lists its pods again, sees the terminating pod as an ADD, and starts termination over
  with the full deletionGracePeriodSeconds: preStop hooks run again and the container gets a
  second SIGTERM. The container runtime kept running meanwhile, so a container that was already
  draining keeps draining and exits on its own schedule.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1" with:
      """
      spec:
        terminationGracePeriodSeconds: 60
      """
    And container "app" of pod "web" exits 40s after SIGTERM

  Scenario: termination starts over after a restart, and the draining container still exits on time
    When the user deletes pod "web"
    And 20s pass
    And the kubelet on node "node-1" restarts
    And the cluster settles
    Then pod "web" is gone
    And these events happen in order:
      | at           | component | event                        |
      | T+0s         | runtime   | SIGTERM app                  |
      | T+20s        | kubelet   | kubelet started on node      |
      | T+20s        | kubelet   | ADD pods/web                 |
      | T+20s..T+21s | kubelet   | SyncTerminatingPod pods/web  |
      | T+20s..T+21s | runtime   | SIGTERM app                  |
      | T+40s        | runtime   | exited app code=0            |
      | T+40s..T+42s | status    | DELETE pods/web              |
    And no runtime event "SIGKILL app" happens

  Scenario: a kubelet restarted while cut off from the apiserver leaves its running pods alone
    # syncLoopIteration skips housekeeping until every config source has delivered its pods
    # (sourcesReady): a kubelet that has not heard from the apiserver must not take its running
    # pods for orphaned runtime pods (K30). Found by the property tests (src/planning/invariants.test.ts).
    When node "node-1" becomes unreachable
    And the kubelet on node "node-1" restarts
    And 2s pass
    And node "node-1" becomes reachable again
    And 10s pass
    Then pod "web" has phase "Running"
    And no runtime event "SIGTERM app" happens
    And no kubelet event "SyncTerminatingRuntimePod" happens
