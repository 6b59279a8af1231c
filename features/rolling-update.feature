@workloads
Feature: A rolling update: the surge counts the pods asked for, not the pods that still run
  The Deployment controller (rolling.go, W8) scales the new ReplicaSet up as far as maxSurge
  allows and the old ones down as far as maxUnavailable allows, both counted in the ReplicaSets'
  spec.replicas and available pods. A pod the old ReplicaSet deleted is in neither count while it
  terminates, so with a long grace period old and new pods run side by side, more of them than
  replicas + maxSurge. DeploymentReplicaSetTerminatingReplicas (α 1.33, β on 1.35) only reports
  them (status.terminatingReplicas); through v1.35 the surge is counted the same way. (Here new
  pods are ready the moment they start, so the whole rollout happens at T+0.)

  Scenario: 4 replicas, maxSurge 1: eight pods run at once while the old ones take 25 s to stop
    # Pinned to v1.33: before DeploymentReplicaSetTerminatingReplicas is on (v1.35) nothing reports them.
    Given Kubernetes v1.33
    And a node "node-1"
    And a deployment "web" with 4 replicas
    And container "app" of the pods of deployment "web" exits 25s after SIGTERM
    When deployment "web" rolls out a new template
    Then these events happen in order:
      | at   | component  | event                                                              |
      | T+0s | deployment | creates replicaset web-bbc788499 with 1 replicas (revision 2)      |
      | T+0s | deployment | scales replicaset web-746bcfcdff from 4 to 3                       |
      | T+0s | deployment | scales replicaset web-bbc788499 from 1 to 2                        |
      | T+0s | replicaset | deletes pod web-746bcfcdff-ckrt7                                   |
      | T+0s | deployment | scales replicaset web-bbc788499 from 3 to 4                        |
    When 10s pass
    Then pod "web-746bcfcdff-ckrt7" is terminating
    And pod "web-746bcfcdff-smmhj" is terminating
    And pod "web-bbc788499-xrmn4" has phase "Running"
    And deployment "web" has fields:
      | path                       | value    |
      | /spec/replicas             | 4        |
      | /status/replicas           | 4        |
      | /status/updatedReplicas    | 4        |
      | /status/availableReplicas  | 4        |
      | /status/terminatingReplicas | <absent> |
    When the cluster settles
    Then pod "web-746bcfcdff-ckrt7" is gone

  Scenario: from v1.35 the terminating pods are reported, and still not counted against the surge
    Given Kubernetes v1.35
    And a node "node-1"
    And a deployment "web" with 4 replicas
    And container "app" of the pods of deployment "web" exits 25s after SIGTERM
    When deployment "web" rolls out a new template
    And 10s pass
    Then deployment "web" has fields:
      | path                        | value |
      | /status/replicas            | 4     |
      | /status/updatedReplicas     | 4     |
      | /status/terminatingReplicas | 4     |
    When the cluster settles
    Then deployment "web" has fields:
      | path                        | value |
      | /status/terminatingReplicas | 0     |

  Scenario: kubectl scale goes through the scale subresource
    Given a node "node-1"
    And a deployment "web" with 2 replicas
    When I run `kubectl scale deployment/web --replicas=3`
    Then kubectl prints "deployment.apps/web scaled"
    And these events happen in order:
      | component  | event                                        |
      | apiserver  | PATCH deployments/web/scale                  |
      | deployment | scales replicaset web-746bcfcdff from 2 to 3 |
      | replicaset | creates pod web-746bcfcdff-                  |

  # The real kubectl stamps restartedAt with the wall clock, so its new ReplicaSet's name differs on
  # every run: this one runs with the built-in kubectl only (the real one's rollout commands are
  # tested against serve in src/frontends/serve/kubectl-workloads.test.ts).
  @built-in-kubectl-only
  Scenario: kubectl rollout restart, status and undo
    Given a node "node-1"
    And a deployment "web" with 2 replicas
    When I run `kubectl scale deployment/web --replicas=3`
    And I run `kubectl rollout restart deployment/web`
    Then kubectl prints "deployment.apps/web restarted"
    When I run `kubectl rollout status deployment/web`
    Then kubectl prints 'deployment "web" successfully rolled out'
    And deployment "web" has fields:
      | path                     | value |
      | /status/updatedReplicas  | 3     |
      | /metadata/annotations/deployment.kubernetes.io~1revision | "2" |
    When I run `kubectl rollout undo deployment/web`
    Then kubectl prints "deployment.apps/web rolled back"
    And replicaset "web-746bcfcdff" has fields:
      | path           | value |
      | /spec/replicas | 3     |

  Scenario: Recreate: the new ReplicaSet starts only once every old pod is gone
    # recreate.go rolloutRecreate: the old sets go to 0 first; oldPodsRunning holds the new one back.
    Given a node "node-1"
    And a deployment "web" with 2 replicas with:
      """
      spec:
        strategy:
          type: Recreate
      """
    And container "app" of the pods of deployment "web" exits 10s after SIGTERM
    When deployment "web" rolls out a new template
    Then these events happen in order:
      | at   | component  | event                                        |
      | T+0s | deployment | scales replicaset web-                       |
      | T+0s | deployment | waits for 2 old pods to be gone (Recreate)   |
    And no deployment event "creates replicaset" happens
    When the cluster settles
    # W64: the old pods turn Succeeded at T+10s: their ReplicaSet's terminatingReplicas drops
    # (DeploymentReplicaSetTerminatingReplicas, on from v1.35), which wakes the Deployment.
    Then these events happen in order:
      | at    | component  | event                                  |
      | T+10s | deployment | creates replicaset web-                |
    And deployment "web" has fields:
      | path                      | value |
      | /status/updatedReplicas   | 2     |
      | /status/availableReplicas | 2     |

  Scenario: scaling a Deployment scales its ReplicaSet, and its annotations follow
    Given a node "node-1"
    And a deployment "web" with 2 replicas
    When deployment "web" is scaled to 4
    And the cluster settles
    Then replicaset "web-746bcfcdff" has fields:
      | path                                                             | value |
      | /spec/replicas                                                   | 4     |
      | /metadata/annotations/deployment.kubernetes.io~1desired-replicas | "4"   |
      | /metadata/annotations/deployment.kubernetes.io~1max-replicas     | "5"   |
      | /status/readyReplicas                                            | 4     |
