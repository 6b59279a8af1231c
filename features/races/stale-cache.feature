Feature: A controller acting on a stale cache (1.35) and waiting for its own write (1.36)
  The job controller counts a finished pod in the Job's status (status.uncountedTerminatedPods,
  then succeeded) before it removes the pod's job-tracking finalizer. Up to v1.35 a sync that
  reads the Job from a cache which has not yet seen the controller's own status write counts from
  the old status: the two finished pods look uncounted and missing, and it creates two more pods.
  From v1.36 (KEP-5647, StaleControllerConsistencyJob, V42) the controller skips a sync while its
  caches are older than its own last write. Both scenarios hold as written; `npx terminating
  explore` finds the race on v1.35 (the job controller seeing Job changes 2 s late) and no plan
  breaks v1.36. (docs/exploring.md; docs/rules/versions.md V42)

  Background:
    Given a node "node-1"
    And a job "pi" with:
      """
      spec:
        completions: 2
        parallelism: 2
      """
    And container "app" of the pods of job "pi" exits with code 0 after running 61s

  Scenario: On v1.35 a Job of two completions runs two pods
    Given Kubernetes v1.35
    When 1m pass
    Then job "pi" has condition "Complete"
    And at no instant do more than 2 pods with label "job-name=pi" exist

  Scenario: On v1.36 a Job of two completions runs two pods
    Given Kubernetes v1.36
    When 1m pass
    Then job "pi" has condition "Complete"
    And at no instant do more than 2 pods with label "job-name=pi" exist

  Scenario: On v1.36 the job controller waits for its own status write even when it sees Job changes 2s late
    Given Kubernetes v1.36
    And the job controller sees job changes 2s late
    When 1m pass
    Then job "pi" has condition "Complete"
    And at no instant do more than 2 pods with label "job-name=pi" exist
