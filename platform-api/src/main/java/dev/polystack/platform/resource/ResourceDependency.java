package dev.polystack.platform.resource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.polystack.rules.ResourceIdentity;

import java.util.ArrayList;
import java.util.List;

/**
 * A resource an active resource depends on, and the alias it is known by there: what the engine records
 * after an apply and reads back to destroy in the right order. Stored as {@code {type, class, id, alias}}.
 */
public record ResourceDependency(ResourceIdentity resource, String alias) {

    static List<ResourceDependency> read(JsonNode stored) {
        List<ResourceDependency> dependencies = new ArrayList<>();
        for (JsonNode dependency : stored) {
            dependencies.add(new ResourceDependency(
                    new ResourceIdentity(
                            dependency.path("type").asText(),
                            dependency.path("class").asText(),
                            dependency.path("id").asText()),
                    dependency.path("alias").asText()));
        }
        return List.copyOf(dependencies);
    }

    static JsonNode write(List<ResourceDependency> dependencies) {
        ArrayNode stored = JsonNodeFactory.instance.arrayNode();
        for (ResourceDependency dependency : dependencies) {
            stored.addObject()
                    .put("type", dependency.resource().type())
                    .put("class", dependency.resource().resourceClass())
                    .put("id", dependency.resource().id())
                    .put("alias", dependency.alias());
        }
        return stored;
    }
}
