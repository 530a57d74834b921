package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Objects;

/**
 * A resource a module needs. A null class means {@code default}; a null id means a resource of its
 * own, {@code <dependent id>.<alias>}.
 */
public record DependencySpec(String type, String resourceClass, String id, ObjectNode params) {

    public DependencySpec {
        Objects.requireNonNull(type, "type");
        params = params == null ? JsonNodeFactory.instance.objectNode() : params.deepCopy();
    }

    @Override
    public ObjectNode params() {
        return params.deepCopy();
    }
}
