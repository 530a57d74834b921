package dev.polystack.platform.module;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Instant;
import java.util.UUID;

public record ModuleRuleView(
        UUID id,
        String moduleId,
        String resourceClass,
        String resourceId,
        String projectId,
        String envTypeId,
        String envId,
        String managedBy,
        @JsonProperty("protected") boolean protect,
        Instant createdAt) {}
