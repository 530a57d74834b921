package dev.polystack.platform.runner;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.Map;

public record RunnerView(String id, String description, String publicKey, Map<String, String> labels,
                         int maxConcurrentJobs, Instant lastSeenAt,
                         @Schema(description = "offline: not seen for a while; idle; busy: running jobs") String status,
                         Instant createdAt, Instant updatedAt, long version) {
}
