package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Objects;

/**
 * A resource type: whether developers may ask for it directly (otherwise only modules may depend on it),
 * and the JSON Schema of its outputs (null when it has none), which says what references may name.
 */
public record ResourceTypeSpec(String id, boolean developerAccessible, JsonNode outputSchema) {

    public ResourceTypeSpec {
        Objects.requireNonNull(id, "id");
    }

    public ResourceTypeSpec(String id, boolean developerAccessible) {
        this(id, developerAccessible, null);
    }
}
