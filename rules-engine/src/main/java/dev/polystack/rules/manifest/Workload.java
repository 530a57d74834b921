package dev.polystack.rules.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/** A workload: the resources it needs and the outputs it derives from them. */
public record Workload(String name, Map<String, ResourceRequest> resources, ObjectNode outputs) {

    public Workload {
        resources = Map.copyOf(resources);
    }

    @Override
    public ObjectNode outputs() {
        return outputs.deepCopy();
    }
}
