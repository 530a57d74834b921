package dev.polystack.rules.graph;

import dev.polystack.rules.ResourceIdentity;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** Compares two resolved graphs node by node. */
public final class GraphDiff {

    private GraphDiff() {}

    /**
     * The change of every resource in either graph. Inputs that are not fully known in the new state
     * count as changed (they will be known after their dependencies apply).
     */
    public static Map<ResourceIdentity, Change> diff(
            Map<ResourceIdentity, NodeState> before, Map<ResourceIdentity, NodeState> after) {
        Map<ResourceIdentity, Change> changes = new TreeMap<>();
        TreeSet<ResourceIdentity> all = new TreeSet<>(before.keySet());
        all.addAll(after.keySet());
        for (ResourceIdentity identity : all) {
            NodeState old = before.get(identity);
            NodeState now = after.get(identity);
            if (old == null) {
                changes.put(identity, Change.ADDED);
            } else if (now == null) {
                changes.put(identity, Change.REMOVED);
            } else if (!old.moduleId().equals(now.moduleId()) || old.moduleVersion() != now.moduleVersion()) {
                changes.put(identity, Change.MODULE_CHANGED);
            } else if (!now.complete()
                    || !old.inputs().equals(now.inputs())
                    || !old.providers().equals(now.providers())) {
                changes.put(identity, Change.INPUTS_CHANGED);
            } else {
                changes.put(identity, Change.UNCHANGED);
            }
        }
        return changes;
    }
}
