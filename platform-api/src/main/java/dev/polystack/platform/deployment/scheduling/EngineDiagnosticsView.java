package dev.polystack.platform.deployment.scheduling;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * What an instance administrator needs to see why deployments do not move: stalled ones with the reason,
 * ones running for long, queues per environment, jobs no runner has taken, this replica's recent
 * advance failures, and environments whose scheduled check could not start.
 */
@Schema(name = "EngineDiagnostics")
public record EngineDiagnosticsView(
        List<DeploymentEntry> stalled,
        List<DeploymentEntry> longRunning,
        List<Queue> queues,
        List<WaitingJob> waitingJobs,

        @Schema(description = "Advance failures seen by the replica that answered, newest first")
        List<Failure> recentFailures,

        @Schema(
                description = "Environments whose scheduled check could not start at the scheduler's last try (any"
                        + " replica's), newest first; an environment leaves the list when one of its scheduled checks"
                        + " starts, and is not listed while it is not active or its checks are off")
        List<CheckNotStarted> checksNotStarted) {

    @Schema(name = "EngineDiagnosticsDeployment")
    public record DeploymentEntry(
            UUID id,
            String org,
            String project,
            String env,
            String mode,
            String status,
            Instant createdAt,
            Instant startedAt,
            String stalledReason,
            Instant stalledAt) {}

    @Schema(name = "EngineDiagnosticsQueue")
    public record Queue(
            String org,
            String project,
            String env,

            @Schema(description = "Deployments queued behind the running one")
            long queued) {}

    @Schema(name = "EngineDiagnosticsWaitingJob")
    public record WaitingJob(
            UUID jobId,
            UUID deploymentId,
            String org,
            String project,
            String env,
            String resource,
            String runner,
            @Schema(description = "offline, idle or busy") String runnerStatus,

            @Schema(
                    description = "The runner rule that chose the runner; null when the resource keeps the runner"
                            + " it was provisioned by")
            String runnerRuleId,

            Instant queuedAt) {}

    @Schema(name = "EngineDiagnosticsFailure")
    public record Failure(UUID deploymentId, String reason, Instant at) {}

    @Schema(name = "EngineDiagnosticsCheckNotStarted")
    public record CheckNotStarted(
            String org,
            String project,
            String env,

            @Schema(description = "Why, with the log reference of the error in the scheduler's replica's log")
            String reason,

            @Schema(description = "The last try that failed")
            Instant at) {}
}
