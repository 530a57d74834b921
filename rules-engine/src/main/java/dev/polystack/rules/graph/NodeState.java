package dev.polystack.rules.graph;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.rules.ResourceIdentity;

/**
 * What decides whether a resource must be run again: its module version, resolved inputs and
 * provider configurations. {@code complete} is false when some inputs were not known yet.
 */
public record NodeState(
        ResourceIdentity identity,
        String moduleId,
        int moduleVersion,
        JsonNode inputs,
        JsonNode providers,
        boolean complete) {}
