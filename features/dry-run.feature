@dry-run
Feature: Server-side dry run of a DELETE
  With `dryRun: [All]` (what `kubectl delete --dry-run=server` sends) the apiserver runs the whole
  deletion logic, preconditions and validation included, and answers as if it had deleted, but
  writes nothing: no new revision, no watch event, so no kubelet ever hears of it. The pod keeps
  running, untouched. `--dry-run=client` does not even send a request.

  Background:
    # Pinned to v1.33: the real-kubectl profile runs these lines with the real kubectl v1.33, whose
    # output (`pod "web" deleted (server dry run)`) is that release's (from v1.34 it names the namespace, V4).
    Given Kubernetes v1.33
    And a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario: kubectl --dry-run=server prints what would happen and changes nothing
    # DryRunnableStorage (R45, R46): 200 with the would-be pod, stored pod untouched.
    When I run `kubectl delete pod web --dry-run=server`
    Then kubectl prints 'pod "web" deleted (server dry run)'
    And the last request returns 200
    And the last request changed pod "web" like this:
      | path | from | to |
    And pod "web" has fields:
      | path                        | value     |
      | /metadata/deletionTimestamp | <absent>  |
      | /status/phase               | "Running" |
    And these events happen in order:
      | at   | component | event                                                   |
      | T+0s | apiserver | DELETE pods/web propagationPolicy=Background dryRun=All |
    And no etcd event "PUT /registry/pods/default/web" happens
    And no kubelet event "DELETE pods/web" happens

  Scenario: a dry-run DELETE with grace 0 returns 200 and the pod still exists
    # R47: the removal is only simulated.
    When the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 0
      dryRun: [All]
      """
    Then the last request returns 200
    And pod "web" exists
    And the last request changed pod "web" like this:
      | path | from | to |
    And no etcd event "PUT /registry/pods/default/web" happens
    And no etcd event "DELETE /registry/pods/default/web" happens
    And no watch event "DELETED pods/web" happens

  Scenario: a dry-run DELETE does not shorten the grace period of a terminating pod
    When the user deletes pod "web"
    And the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 0
      dryRun: [All]
      """
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path | from | to |
    And pod "web" is terminating
    And pod "web" has fields:
      | path                                 | value |
      | /metadata/deletionTimestamp          | T+30s |
      | /metadata/deletionGracePeriodSeconds | 30    |

  Scenario: a dry run still checks preconditions and existence
    # R48: the errors are real.
    When the user deletes pod "web" with options:
      """
      dryRun: [All]
      preconditions:
        uid: 00000000-0000-0000-0000-000000000000
      """
    Then the last request fails with 409 Conflict
    When the user deletes pod "nope" with options:
      """
      dryRun: [All]
      """
    Then the last request fails with 404 NotFound

  Scenario: kubectl --dry-run=client sends no request at all
    When I run `kubectl delete pod web --dry-run=client`
    Then kubectl prints 'pod "web" deleted (dry run)'
    And no apiserver event "DELETE pods/web" happens
    And pod "web" exists
