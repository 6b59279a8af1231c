Feature: Slow requests: a controller whose writes land after the state they were decided on
  `Given requests of the … controller take D` puts a controller of kube-controller-manager on a
  slow connection to the apiserver: it runs D behind — every change reaches it D late, its reads
  answer the state of D ago, its clock reads D ago — so each write lands D after the state it was
  decided on (exact for the first request of each reaction). The EndpointSlice controller's
  removal of a terminating endpoint then lands late, and without a preStop delay requests fail
  meanwhile; a preStop sleep longer than the delay fixes it. A controller that sees everything
  equally late keeps a consistent view: the job controller on v1.35, whose race needs the Job
  seen later than its pods (stale-cache.feature), holds. `npx terminating explore` tries these
  plans for every controller a scenario runs. (docs/exploring.md; docs/rules/traffic.md N7, N13)

  Background:
    Given a node "node-1"

  Scenario: The EndpointSlice controller's requests take 1s, and requests fail until its update lands
    Given a pod "web-1" running on node "node-1" with label "app=web"
    And a pod "web-2" running on node "node-1" with label "app=web"
    And a service "web" selecting pods with label "app=web"
    And clients send a request to service "web" every 100ms
    And requests of the endpointslice controller take 1s
    When the user deletes pod "web-2"
    And 5s pass
    Then requests to service "web" fail only between T+0s and T+1s
    And pod "web-2" is gone

  Scenario: A preStop sleep longer than the delay keeps every request served
    Given a pod "web-1" running on node "node-1" with label "app=web"
    And a pod "web-2" running on node "node-1" with:
      """
      metadata:
        labels:
          app: web
      spec:
        containers:
        - name: app
          lifecycle:
            preStop:
              sleep:
                seconds: 5
      """
    And a service "web" selecting pods with label "app=web"
    And clients send a request to service "web" every 100ms
    And requests of the endpointslice controller take 2s
    When the user deletes pod "web-2"
    And 10s pass
    Then no request to service "web" fails
    And pod "web-2" is gone

  Scenario: On v1.35 the job controller's slow requests keep its view consistent: two pods for two completions
    Given a job "pi" with:
      """
      spec:
        completions: 2
        parallelism: 2
      """
    And container "app" of the pods of job "pi" exits with code 0 after running 61s
    And Kubernetes v1.35
    And requests of the job controller take 2s
    When 1m pass
    Then job "pi" has condition "Complete"
    And at no instant do more than 2 pods with label "job-name=pi" exist

