package dev.polystack.platform.deployment;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/** One resource of a deployment and how it went. */
public record NodeView(
        String type,

        @JsonProperty("class") String resourceClass,

        String id,
        String path,
        String operation,
        String action,
        String status,
        String moduleId,
        Integer moduleVersion,
        String runnerId,
        int attempt,
        JsonNode planSummary,
        String error,
        Instant queuedAt,
        Instant startedAt,
        Instant finishedAt) {}
