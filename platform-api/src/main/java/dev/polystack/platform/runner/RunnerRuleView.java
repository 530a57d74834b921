package dev.polystack.platform.runner;

import java.time.Instant;
import java.util.UUID;

public record RunnerRuleView(UUID id, String runnerId, String projectId, String envTypeId, String envId,
                             String resourceType, String resourceClass, Instant createdAt) {
}
