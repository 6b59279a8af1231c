Feature: Jobs: the job-tracking finalizer, sidecars, failures
  The job controller creates a Job's pods with the finalizer batch.kubernetes.io/job-tracking and
  removes it only once it has counted the finished pod in the Job's status (first in
  status.uncountedTerminatedPods, then in succeeded or failed). Until then a deleted pod stays
  Terminating — with the controller down, for as long as it is down. (W41, W46, W47; the sidecar: K90)

  Scenario: A Job whose pod has a native sidecar completes once its main container is done (SidecarContainers, GA in v1.33)
    Given Kubernetes v1.33
    And a node "node-1"
    And a job "backup" with:
      """
      spec:
        template:
          spec:
            initContainers:
            - name: proxy
              restartPolicy: Always
      """
    And container "app" of the pods of job "backup" exits with code 0 after running 2m
    When 2m pass
    Then job "backup" has condition "Complete"
    And these events happen in order:
      | component | event                          |
      | runtime   | exited app                     |
      | runtime   | SIGTERM proxy                  |
      | job       | jobs/backup is Complete        |

  Scenario: With the job controller stopped, a finished pod keeps its job-tracking finalizer: deleted, it stays Terminating until the controller is back
    Given a node "node-1"
    And a job "pi"
    And container "app" of the pods of job "pi" exits with code 0 after running 2m
    When the job controller stops
    And 2m pass
    And the user deletes the pods of job "pi"
    And 10m pass
    Then the pods of job "pi" are terminating
    And job "pi" has no condition "Complete"
    When the job controller starts again
    And 5s pass
    Then the pods of job "pi" are gone
    And job "pi" has condition "Complete"
    And these events happen in order:
      | component | event                                                       |
      | runtime   | exited app code=0                                           |
      | apiserver | DELETE pods/pi-                                             |
      | job       | remove finalizer batch.kubernetes.io/job-tracking from pods/pi- |
      | etcd      | DELETE /registry/pods/default/pi-                           |
      | job       | jobs/pi is Complete                                         |

  Scenario: Deleting a Job with no propagation policy orphans its pods (batch/v1's default) and the job controller takes their finalizer off
    Given a node "node-1"
    And a job "pi"
    When the user deletes job "pi" with propagation none
    And 5s pass
    Then the last request returns 200
    And these events happen in order:
      | component | event                                                                   |
      | gc        | orphan pods/pi-                                                         |
      | job       | remove finalizer batch.kubernetes.io/job-tracking from pods/pi-         |
    And no apiserver event "DELETE pods/pi-" happens

  Scenario: Deleting a Job in the background deletes its pods; each goes once its finalizer is off
    Given a node "node-1"
    And a job "pi"
    When the user deletes job "pi" with propagation Background
    And 1m passes
    Then the pods of job "pi" are gone
    And these events happen in order:
      | component | event                                        |
      | gc        | delete pods/pi-                              |
      | job       | remove finalizer batch.kubernetes.io/job-tracking from     |
