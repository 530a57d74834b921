package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Objects;

/** A provider configuration; strings in it may hold placeholders. */
public record ProviderSpec(String type, String id, String source, String versionConstraint, ObjectNode configuration) {

    public ProviderSpec {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(id, "id");
        configuration = configuration == null ? JsonNodeFactory.instance.objectNode() : configuration.deepCopy();
    }

    public String key() {
        return type + "." + id;
    }

    @Override
    public ObjectNode configuration() {
        return configuration.deepCopy();
    }
}
