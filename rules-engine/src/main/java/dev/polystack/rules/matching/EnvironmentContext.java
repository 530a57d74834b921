package dev.polystack.rules.matching;

import java.util.Objects;

/** Where resources are deployed: the ids of the organization, project, environment and its type. */
public record EnvironmentContext(String orgId, String projectId, String envId, String envTypeId) {

    public EnvironmentContext {
        Objects.requireNonNull(orgId, "orgId");
        Objects.requireNonNull(projectId, "projectId");
        Objects.requireNonNull(envId, "envId");
        Objects.requireNonNull(envTypeId, "envTypeId");
    }

    @Override
    public String toString() {
        return "project `" + projectId + "`, environment `" + envId + "` of type `" + envTypeId + "`";
    }
}
