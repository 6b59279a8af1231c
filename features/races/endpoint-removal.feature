Feature: The endpoint-removal race
  A deleted pod gets SIGTERM at once, while the EndpointSlice controller and every node's
  kube-proxy stop sending it traffic only once they have seen the deletion. Without a preStop
  delay the process stops listening before that: requests fail for as long as the slowest of them
  lags. A preStop sleep longer than the lag keeps the process serving until nobody sends to it.
  Each scenario holds as written (every hand-off instant); `npx terminating explore` finds the
  race in the first by delaying what each component sees, and finds none in the second.
  (docs/exploring.md; docs/rules/traffic.md N7, N13, N15)

  Background:
    Given a node "node-1"
    And a pod "web-1" running on node "node-1" with label "app=web"
    And a service "web" selecting pods with label "app=web"
    And clients send a request to service "web" every 100ms

  Scenario: No preStop delay: no request fails while every component sees the deletion at once
    Given a pod "web-2" running on node "node-1" with label "app=web"
    When the user deletes pod "web-2"
    And 5s pass
    Then no request to service "web" fails
    And pod "web-2" is gone

  Scenario: The race itself: kube-proxy sees the EndpointSlice change 1s late, and requests fail meanwhile
    Given a pod "web-2" running on node "node-1" with label "app=web"
    And the kube-proxy on node "node-1" sees endpointslice changes 1s late
    When the user deletes pod "web-2"
    And 5s pass
    Then requests to service "web" fail only between T+0s and T+1s

  Scenario: The fix: a preStop sleep longer than any lag, and no request fails
    Given a pod "web-2" running on node "node-1" with:
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
    When the user deletes pod "web-2"
    And 10s pass
    Then no request to service "web" fails
    And pod "web-2" is gone

  Scenario: The fix holds while the EndpointSlice controller sees pods 2s late
    Given a pod "web-2" running on node "node-1" with:
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
    And the endpointslice controller sees pod changes 2s late
    When the user deletes pod "web-2"
    And 10s pass
    Then no request to service "web" fails
