package dev.polystack.platform.deployment;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A deployment; {@code nodes} only in the detail.
 *
 * @param progress count of nodes per status, plus {@code total} and {@code done}
 */
public record DeploymentView(UUID id, String project, String env, String mode, String status, Integer manifestVersion,
                             UUID rollbackOf, boolean force, boolean cancelRequested, String createdBy, Instant createdAt,
                             Instant startedAt, Instant finishedAt, String error,
                             @org.eclipse.microprofile.openapi.annotations.media.Schema(description = "Why the engine cannot advance it"
                                     + " (it retries); absent while it advances") String stalledReason,
                             Instant stalledAt,
                             @org.eclipse.microprofile.openapi.annotations.media.Schema(description = "What its queued resources wait for,"
                                     + " such as a slot of the organization's concurrent jobs; in the detail only") String waiting,
                             Map<String, Integer> progress, List<NodeView> nodes) {
}
