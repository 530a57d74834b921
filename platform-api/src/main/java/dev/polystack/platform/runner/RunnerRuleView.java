package dev.polystack.platform.runner;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Instant;
import java.util.UUID;

public record RunnerRuleView(
        UUID id,
        String runnerId,
        String projectId,
        String envTypeId,
        String envId,
        String resourceType,
        String resourceClass,
        String managedBy,
        @JsonProperty("protected") boolean protect,
        Instant createdAt) {}
