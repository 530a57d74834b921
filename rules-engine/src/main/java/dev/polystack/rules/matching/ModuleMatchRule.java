package dev.polystack.rules.matching;

import java.util.Objects;

/**
 * A module rule as the engine sees it. {@code moduleResourceType} is the resource type of the rule's
 * module: a rule only ever applies to resources of that type. Null criteria match anything.
 */
public record ModuleMatchRule(
        String id,
        String moduleId,
        String moduleResourceType,
        String resourceClass,
        String resourceId,
        String projectId,
        String envTypeId,
        String envId) {

    public ModuleMatchRule {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(moduleId, "moduleId");
        Objects.requireNonNull(moduleResourceType, "moduleResourceType");
    }
}
