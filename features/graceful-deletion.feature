@graceful
Feature: Graceful deletion of a pod
  A DELETE without options only stamps the pod with a deletionTimestamp; the kubelet stops the
  containers, reports a terminal phase, and its own DELETE with grace 0 removes the pod.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario: the first DELETE only stamps deletionTimestamp and deletionGracePeriodSeconds
    When the user deletes pod "web"
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path                                 | from      | to     |
      | /metadata/deletionTimestamp          | <absent>  | T+30s  |
      | /metadata/deletionGracePeriodSeconds | <absent>  | 30     |
      | /metadata/generation                 | 1         | 2      |
    And pod "web" is terminating

  Scenario: the kubelet kills the container, reports Failed, and sends the final DELETE
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And kubectl prints 'pod "web" deleted'
    And these events happen in order:
      | at   | component | event                                     |
      | T+0s | apiserver | DELETE pods/web propagationPolicy=Background |
      | T+0s | kubelet   | DELETE pods/web                           |
      | T+0s | kubelet   | SyncTerminatingPod pods/web               |
      | T+0s | runtime   | SIGTERM app                               |
      | T+0s | runtime   | exited app code=143                       |
      | T+1s | kubelet   | SyncTerminatedPod pods/web                |
      | T+1s | status    | resources reclaimed pods/web              |
      | T+1s | status    | DELETE pods/web                           |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.uid= |
      | T+1s | etcd      | DELETE /registry/pods/default/web         |
      | T+1s | kubelet   | REMOVE pods/web                           |
