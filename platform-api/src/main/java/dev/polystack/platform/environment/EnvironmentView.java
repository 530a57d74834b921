package dev.polystack.platform.environment;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

public record EnvironmentView(String id, String projectId, String envTypeId, EnvironmentStatus status,
                              String managedBy,
                              @JsonProperty("protected") boolean protect, Instant createdAt, Instant updatedAt, long version) {
}
