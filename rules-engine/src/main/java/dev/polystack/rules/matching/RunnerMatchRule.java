package dev.polystack.rules.matching;

import java.util.Objects;

/** A runner rule as the engine sees it. Null criteria match anything. */
public record RunnerMatchRule(
        String id,
        String runnerId,
        String projectId,
        String envTypeId,
        String envId,
        String resourceType,
        String resourceClass) {

    public RunnerMatchRule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(runnerId, "runnerId");
    }
}
