package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Set;

/** What a finished resource reported: its outputs by name, and which of them are sensitive. */
public record Outputs(ObjectNode values, Set<String> sensitive) {

    public static final Outputs NONE = new Outputs(JsonNodeFactory.instance.objectNode(), Set.of());

    public Outputs {
        values = values.deepCopy();
        sensitive = Set.copyOf(sensitive);
    }

    @Override
    public ObjectNode values() {
        return values.deepCopy();
    }
}
