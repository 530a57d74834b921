package dev.polystack.platform.deployment;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A deployment; {@code nodes} only in the detail.
 *
 * @param progress count of nodes per status, plus {@code total} and {@code done}
 */
public record DeploymentView(
        UUID id,
        String project,
        String env,
        String mode,
        String status,
        Integer manifestVersion,
        UUID rollbackOf,
        boolean force,
        boolean cancelRequested,
        String createdBy,
        Instant createdAt,
        Instant startedAt,
        Instant finishedAt,
        String error,

        @Schema(description = "Why the engine cannot advance it" + " (it retries); absent while it advances")
        String stalledReason,

        Instant stalledAt,

        @Schema(
                description = "What its queued resources wait for,"
                        + " such as a slot of the organization's concurrent jobs; in the detail only")
        String waiting,

        Map<String, Integer> progress,

        @Schema(
                description = "What its OpenTofu runs added, changed and destroyed, summed over its resources"
                        + " (of a plan: what they would); absent until one reports")
        Changes changes,

        @Schema(
                description = "The first ten resources that failed, with the first line of each error"
                        + " (`progress.failed` counts them all; the nodes have the whole error)")
        List<Failure> failures,

        List<NodeView> nodes,

        @Schema(description = "The resources it is limited to (type/class/id); absent: the whole manifest")
        List<String> targets,

        @Schema(description = "The issues a reconcile deployment was started for")
        List<UUID> reconciles,

        @Schema(description = "A check: planned with -refresh-only")
        Boolean refreshOnly,

        @Schema(description = "Its approval gate, when it needs approval before it applies")
        Gate approval) {

    /**
     * @param state     planning, awaiting, approved, not-needed (its plan changed nothing), rejected, expired, stale,
     *                  cancelled (while it planned or waited) or plan-failed
     * @param decisions the members' decisions, oldest first
     */
    @Schema(name = "ApprovalGate")
    public record Gate(
            String state,
            int required,
            List<String> approvers,
            boolean allowSelfApproval,
            String fingerprint,
            Instant expiresAt,
            List<ApprovalView> decisions) {}

    @Schema(name = "DeploymentChanges")
    public record Changes(int add, int change, int destroy) {}

    @Schema(name = "DeploymentFailure")
    public record Failure(String resource, String error) {}
}
