package dev.polystack.platform.deployment;

import dev.polystack.platform.deployment.model.Approval;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.UUID;

/** One decision on a deployment's plan. */
@Schema(name = "Approval")
public record ApprovalView(
        UUID id,
        @Schema(enumeration = {"approve", "reject"}) String decision,
        String comment,
        String user,
        String role,

        @Schema(description = "The plan it approved or rejected")
        String fingerprint,

        Instant createdAt) {

    static ApprovalView of(Approval approval) {
        return new ApprovalView(
                approval.id(),
                approval.decision(),
                approval.comment(),
                approval.userName(),
                approval.role(),
                approval.fingerprint(),
                approval.createdAt());
    }
}
