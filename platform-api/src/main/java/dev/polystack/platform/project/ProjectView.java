package dev.polystack.platform.project;

import java.time.Instant;

public record ProjectView(String id, String name, Instant createdAt, Instant updatedAt, long version) {

    static ProjectView of(Project project) {
        return new ProjectView(project.slug(), project.name(), project.createdAt(), project.updatedAt(), project.version());
    }
}
