package dev.polystack.platform.module;

import java.time.Instant;
import java.util.UUID;

public record ModuleRuleView(UUID id, String moduleId, String resourceClass, String resourceId, String projectId,
                             String envTypeId, String envId, Instant createdAt) {
}
