Feature: A rollout of ten replicas behind a Service, as the report shows it
  A Deployment of ten replicas rolls out a new template while clients send requests through a
  load balancer that learns of endpoint changes 2 s late (W8, N13). The old pods stop listening
  at once on SIGTERM; the load balancer keeps sending them requests until it catches up, and
  those fail. The report's overview shows each pod Running, Terminating and gone, which pods the
  load balancer and each node's kube-proxy still sent to, and the failed requests
  (docs/report.md).

  Background:
    Given a node "node-1"
    And a node "node-2"

  Scenario: ten replicas roll out while clients send requests, and some fail
    Given a deployment "web" with 10 replicas
    And a service "web" selecting pods with label "app=web"
    And the load balancer of service "web" notices endpoint changes after 2s
    And clients outside the cluster send a request to service "web" every 100ms
    When deployment "web" rolls out a new template
    And the cluster settles
    Then 19 requests to service "web" fail
    And these events happen in order:
      | at   | component  | event                        |
      | T+0s | deployment | creates replicaset web-      |
      | T+0s | replicaset | deletes pod web-             |
      | T+0s | runtime    | SIGTERM app                  |
      | T+2s | loadbalancer | load balancer of web sends to: web- |

  # Not under -p real-kubectl: the real kubectl's --timeout counts wall-clock time, and the
  # simulation's 20 virtual seconds pass in milliseconds, so it would wait 20 real seconds.
  @built-in-kubectl-only
  Scenario: kubectl gives up waiting for a pod whose finalizer nobody removes
    Given a pod "web" running on node "node-1" with:
      """
      metadata:
        finalizers: [example.com/hold]
      """
    When I try to run `kubectl delete pod web --timeout=20s`
    Then kubectl fails with "timed out waiting for the condition"
