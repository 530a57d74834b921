package dev.polystack.rules.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.rules.ResourceIdentity;

/**
 * One resource as a manifest asks for it.
 *
 * @param path     where it is declared, e.g. {@code workloads.checkout.resources.db}
 * @param workload the workload it belongs to, or null for a shared resource
 * @param alias    its name within the workload (or within {@code shared})
 * @param identity type, class and id (defaults applied)
 * @param params   the params given, strings possibly holding placeholders
 */
public record ResourceRequest(
        String path, String workload, String alias, ResourceIdentity identity, ObjectNode params) {

    public boolean isShared() {
        return workload == null;
    }

    @Override
    public ObjectNode params() {
        return params.deepCopy();
    }
}
