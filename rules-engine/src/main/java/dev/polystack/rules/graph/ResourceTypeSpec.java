package dev.polystack.rules.graph;

import java.util.Objects;

/** A resource type: whether developers may ask for it directly (otherwise only modules may depend on it). */
public record ResourceTypeSpec(String id, boolean developerAccessible) {

    public ResourceTypeSpec {
        Objects.requireNonNull(id, "id");
    }
}
