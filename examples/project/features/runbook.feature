@runbook
Feature: The team's runbook, checked against the simulation

  Scenario: draining one pod leaves the other
    Given a node "node-1"
    And a pod "web" running on node "node-1"
    And a pod "api" running on node "node-1"
    When I run `kubectl delete pod web`
    Then pod "web" is gone
    And the runbook lists only pods "api"
