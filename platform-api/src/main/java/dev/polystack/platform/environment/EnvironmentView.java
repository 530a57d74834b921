package dev.polystack.platform.environment;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.envtype.CheckSchedule;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;

public record EnvironmentView(
        String id,
        String projectId,
        String envTypeId,
        EnvironmentStatus status,
        String managedBy,
        @JsonProperty("protected") boolean protect,

        @Schema(description = "Its own check schedule; absent when it follows its environment type's")
        CheckSchedule checks,

        Instant createdAt,
        Instant updatedAt,
        long version) {}
