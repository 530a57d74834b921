package dev.polystack.platform.module;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ParamType;
import dev.polystack.rules.graph.DependencySpec;
import dev.polystack.rules.graph.ModuleSpec;
import dev.polystack.rules.graph.ParamSpec;

import java.util.HashMap;
import java.util.Map;

/** Turns a stored module version into the rules engine's {@link ModuleSpec}. */
final class ModuleSpecs {

    private ModuleSpecs() {}

    static ModuleSpec of(String moduleId, int version, String resourceType, ModuleDefinition definition) {
        Map<String, ParamSpec> params = new HashMap<>();
        definition
                .moduleParams()
                .properties()
                .forEach(e -> params.put(
                        e.getKey(),
                        new ParamSpec(
                                ParamType.fromWire(e.getValue().path("type").asText()),
                                e.getValue().path("is_optional").asBoolean(false))));
        Map<String, String> mapping = new HashMap<>();
        definition
                .providerMapping()
                .properties()
                .forEach(e -> mapping.put(e.getKey(), e.getValue().asText()));
        Map<String, DependencySpec> dependencies = new HashMap<>();
        definition.dependencies().properties().forEach(e -> {
            JsonNode d = e.getValue();
            dependencies.put(
                    e.getKey(),
                    new DependencySpec(
                            d.path("type").asText(),
                            text(d, "class"),
                            text(d, "id"),
                            d.get("params") instanceof ObjectNode params1 ? params1 : null));
        });
        return new ModuleSpec(
                moduleId, version, resourceType, params, (ObjectNode) definition.moduleInputs(), mapping, dependencies);
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
