@preconditions
Feature: Preconditions on DELETE
  DeleteOptions may carry preconditions: the uid and/or the resourceVersion the client expects the
  pod to have. The apiserver compares them with the stored pod before anything else, even before
  it decides that a repeated DELETE is a no-op, and answers 409 Conflict on a mismatch without
  writing anything. This is how the kubelet makes sure that its final DELETE (grace 0, UID
  precondition) can never remove a newer pod that reuses the name, and how a careful client avoids
  deleting a pod that changed since it last read it.

  Background:
    Given a node "node-1"
    And a pod "web" running on node "node-1"

  Scenario: a wrong uid precondition is refused with 409 Conflict
    # rest.BeforeDelete (R41): checked against the stored pod; nothing written.
    When the user deletes pod "web" with options:
      """
      preconditions:
        uid: 00000000-0000-0000-0000-000000000000
      """
    Then the last request fails with 409 Conflict saying "the UID in the precondition (00000000-0000-0000-0000-000000000000) does not match the UID in record"
    And the last request changed pod "web" like this:
      | path | from | to |
    And pod "web" has fields:
      | path                        | value    |
      | /metadata/deletionTimestamp | <absent> |
    And no etcd event "PUT /registry/pods/default/web" happens
    And no kubelet event "DELETE pods/web" happens

  Scenario: a resourceVersion precondition that is not the stored one is refused with 409 Conflict
    When the user deletes pod "web" with options:
      """
      preconditions:
        resourceVersion: "1"
      """
    Then the last request fails with 409 Conflict saying "the ResourceVersion in the precondition (1) does not match the ResourceVersion in record"
    And the last request changed pod "web" like this:
      | path | from | to |
    And no etcd event "PUT /registry/pods/default/web" happens

  Scenario: a resourceVersion read before someone else wrote the pod is stale
    # The resourceVersion is the etcd revision of the pod's last write (R52). The first DELETE
    # writes a new revision, so a precondition naming the pod's creation revision ("2": the
    # first write of a fresh etcd) no longer matches.
    When 1s passes
    And the user deletes pod "web"
    And the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 0
      preconditions:
        resourceVersion: "2"
      """
    Then the last request fails with 409 Conflict saying "does not match the ResourceVersion in record"
    And pod "web" is terminating

  Scenario: preconditions are checked before a repeated DELETE is found to be a no-op
    # R41 comes before R21/R22: without a precondition this second DELETE would be a 200 no-op.
    When the user deletes pod "web"
    And the user deletes pod "web" with options:
      """
      preconditions:
        uid: 00000000-0000-0000-0000-000000000000
      """
    Then the last request fails with 409 Conflict
    And pod "web" is terminating

  Scenario: grace 0 with the right resourceVersion removes the pod
    # <resourceVersion of pod "web"> is the pod's current resourceVersion. The stamping write
    # creates a new revision; for the removal that follows in the same request the RV
    # precondition is re-pointed to it (R43, since v1.17), so the request does not conflict with
    # itself.
    When 1s passes
    And the user deletes pod "web" with options:
      """
      gracePeriodSeconds: 0
      preconditions:
        resourceVersion: <resourceVersion of pod "web">
      """
    Then the last request returns 200
    And the last request changed pod "web" like this:
      | path                                 | from     | to   |
      | /metadata/deletionTimestamp          | <absent> | T+1s |
      | /metadata/deletionGracePeriodSeconds | <absent> | 0    |
      | /metadata/generation                 | 1        | 2    |
    And pod "web" is gone
    And these events happen in exactly this order:
      | at   | component | event                                                                |
      | T+1s | apiserver | DELETE pods/web gracePeriodSeconds=0 preconditions.resourceVersion= |
      | T+1s | etcd      | PUT /registry/pods/default/web                                       |
      | T+1s | etcd      | DELETE /registry/pods/default/web                                    |
