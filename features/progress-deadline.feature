Feature: Deployment progress deadlines (W64, V61)
  The Deployment controller reports a rollout's progress in the Progressing condition and checks
  it again when progressDeadlineSeconds (600 by default) have passed without progress
  (pkg/controller/deployment/progress.go syncRolloutStatus, requeueStuckDeployment). Timing out
  only marks the condition: a Recreate rollout still waits for its old pods (recreate.go
  oldPodsRunning). The Deployment controller has no handler for a pod that turns Failed, so a
  finished old pod that a finalizer keeps stored is noticed by whatever sync comes next: through
  v1.34 that is the progress check, from v1.35 the ReplicaSet's terminatingReplicas changing
  (DeploymentReplicaSetTerminatingReplicas, beta on).

  Background:
    Given a node "node-1"

  Scenario: v1.34: a Recreate rollout whose old pod is held by a finalizer goes on at the progress check
    Given Kubernetes 1.34
    And a deployment "web" with 1 replicas with:
      """
      spec:
        strategy:
          type: Recreate
        template:
          metadata:
            finalizers: [example.com/hold]
      """
    And container "app" of the pods of deployment "web" exits 10s after SIGTERM
    When deployment "web" rolls out a new template
    And 15m pass
    Then these events happen in order:
      | at      | component  | event                                                      |
      | T+0s    | deployment | scales replicaset web-                                     |
      | T+0s    | deployment | waits for 1 old pod to be gone (Recreate)                  |
      | T+0s    | deployment | deployments/web queued for a progress check in 541s        |
      | T+9m1s  | deployment | creates replicaset web-                                    |
      | T+9m1s  | deployment | deployments/web Progressing: NewReplicaSetCreated          |
    And deployment "web" has fields:
      | path                         | value                  |
      | /status/conditions/1/type    | Progressing            |
      | /status/conditions/1/reason  | NewReplicaSetAvailable |
      | /status/updatedReplicas      | 1                      |

  Scenario: v1.36: the same rollout goes on as soon as the old pod has finished
    Given Kubernetes 1.36
    And a deployment "web" with 1 replicas with:
      """
      spec:
        strategy:
          type: Recreate
        template:
          metadata:
            finalizers: [example.com/hold]
      """
    And container "app" of the pods of deployment "web" exits 10s after SIGTERM
    When deployment "web" rolls out a new template
    And 15m pass
    Then these events happen in order:
      | at    | component  | event                                             |
      | T+0s  | deployment | waits for 1 old pod to be gone (Recreate)         |
      | T+10s | deployment | creates replicaset web-                           |

  Scenario: a rollout without progress for progressDeadlineSeconds is marked ProgressDeadlineExceeded
    # No node matches the template's nodeSelector: the pods stay Pending, the rollout never progresses.
    Given a deployment "web" with 2 replicas with:
      """
      spec:
        progressDeadlineSeconds: 120
        template:
          spec:
            nodeSelector:
              disk: ssd
      """
    When 10m pass
    Then these events happen in order:
      | at     | component  | event                                     |
      | T+1m1s | deployment | deployments/web has timed out progressing |
    And deployment "web" has fields:
      | path                         | value                                                  |
      | /status/conditions/1/type    | Progressing                                            |
      | /status/conditions/1/status  | False                                                  |
      | /status/conditions/1/reason  | ProgressDeadlineExceeded                               |
      | /status/conditions/1/message | ReplicaSet "web-699578bbcc" has timed out progressing. |
    And no deployment event "deployments/web is past its progress deadline" happens

  Scenario: a complete Deployment whose pods later fail is never marked timed out, and is requeued at the queue's rate
    # progress.go: once Progressing says NewReplicaSetAvailable and every replica is updated, no progress is estimated
    # any more; requeueStuckDeployment still finds the Deployment not complete and, its condition older than the
    # deadline, queues it rate-limited after each (successful, forgotten) sync — ten syncs a second.
    Given a deployment "web" with 1 replicas with:
      """
      spec:
        progressDeadlineSeconds: 60
      """
    And container "app" of the pods of deployment "web" exits with code 1 after running 5s
    When 5m pass
    Then these events happen in order:
      | at     | component  | event                                                           |
      | T+18s  | deployment | deployments/web is past its progress deadline and not complete |
    And no deployment event "deployments/web has timed out progressing" happens
