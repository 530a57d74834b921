package dev.polystack.platform.deployment;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A deployment that waits for the caller's approval: what it would change, and until when it waits. */
@Schema(name = "PendingApproval")
public record PendingApprovalView(
        UUID deploymentId,
        String project,
        String env,
        String mode,
        String createdBy,
        Instant createdAt,

        @Schema(description = "The issues a reconcile deployment is for")
        List<UUID> reconciles,

        DeploymentView.Changes changes,
        int approvals,
        int required,
        String fingerprint,
        Instant expiresAt) {}
