package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One module version as the engine needs it.
 *
 * @param inputs          module inputs; strings may hold placeholders
 * @param providerMapping OpenTofu provider local name to {@code type.id}
 */
public record ModuleSpec(
        String id,
        int version,
        String resourceType,
        Map<String, ParamSpec> params,
        ObjectNode inputs,
        Map<String, String> providerMapping,
        Map<String, DependencySpec> dependencies) {

    public ModuleSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(resourceType, "resourceType");
        params = Map.copyOf(params == null ? Map.of() : params);
        inputs = inputs == null ? JsonNodeFactory.instance.objectNode() : inputs.deepCopy();
        providerMapping = Map.copyOf(providerMapping == null ? Map.of() : providerMapping);
        dependencies = Collections.unmodifiableMap(new TreeMap<>(dependencies == null ? Map.of() : dependencies));
    }

    @Override
    public ObjectNode inputs() {
        return inputs.deepCopy();
    }
}
