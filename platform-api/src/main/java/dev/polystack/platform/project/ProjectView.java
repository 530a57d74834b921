package dev.polystack.platform.project;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Instant;

public record ProjectView(
        String id,
        String name,
        String managedBy,
        @JsonProperty("protected") boolean protect,
        Instant createdAt,
        Instant updatedAt,
        long version) {

    static ProjectView of(Project project) {
        return new ProjectView(
                project.slug(),
                project.name(),
                project.management().managedBy(),
                project.management().isProtected(),
                project.createdAt(),
                project.updatedAt(),
                project.version());
    }
}
