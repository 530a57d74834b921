package dev.polystack.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {

    @Test
    void aDeploymentThatWaitsForApprovalSaysHowManyApprovalsItHasAndUntilWhen() throws Exception {
        var deployment = new ObjectMapper().readTree("""
                {"id": "d-1", "status": "awaiting_approval",
                 "approval": {"state": "awaiting", "required": 2, "expires_at": "2026-12-03T10:00:00Z",
                              "decisions": [{"decision": "approve", "user": "ana"}]}}""");
        assertThat(Progress.awaitingApproval(deployment))
                .startsWith("waiting for approval: 1 of 2 given, until 2026-12-03T10:00:00Z")
                .contains("/deployments/d-1/approvals");
    }
}
