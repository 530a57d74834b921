package dev.polystack.rules.manifest;

import dev.polystack.rules.ResourceIdentity;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A parsed, structurally valid manifest. Equal identities declared in several places are one
 * resource ({@link #resources()}); the parser has checked that they agree.
 */
public record Manifest(Map<String, Workload> workloads, Map<String, ResourceRequest> shared) {

    public Manifest {
        workloads = Collections.unmodifiableMap(new TreeMap<>(workloads));
        shared = Collections.unmodifiableMap(new TreeMap<>(shared));
    }

    /** Every declaration, shared ones first, then workloads by name and aliases by name. */
    public List<ResourceRequest> requests() {
        List<ResourceRequest> all = new ArrayList<>(shared.values());
        for (Workload workload : workloads.values()) {
            new TreeMap<>(workload.resources()).values().forEach(all::add);
        }
        return all;
    }

    /** The distinct resources, each with its first declaration. */
    public Map<ResourceIdentity, ResourceRequest> resources() {
        Map<ResourceIdentity, ResourceRequest> resources = new LinkedHashMap<>();
        for (ResourceRequest request : requests()) {
            resources.putIfAbsent(request.identity(), request);
        }
        return resources;
    }
}
