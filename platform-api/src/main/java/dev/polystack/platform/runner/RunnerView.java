package dev.polystack.platform.runner;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A runner as the API shows it.
 *
 * @param currentJobs the jobs it is running now
 */
public record RunnerView(
        String id,
        String description,
        String publicKey,
        Map<String, String> labels,
        int maxConcurrentJobs,
        Instant lastSeenAt,

        @Schema(description = "offline: not heard from for two heartbeat intervals; idle; busy: running jobs")
        String status,

        List<RunnerWorkload.CurrentJob> currentJobs,
        String managedBy,
        @JsonProperty("protected") boolean protect,
        Instant createdAt,
        Instant updatedAt,
        long version) {}
