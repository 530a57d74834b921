package dev.polystack.platform.environment;

import java.time.Instant;

public record EnvironmentView(String id, String projectId, String envTypeId, EnvironmentStatus status,
                              Instant createdAt, Instant updatedAt, long version) {
}
