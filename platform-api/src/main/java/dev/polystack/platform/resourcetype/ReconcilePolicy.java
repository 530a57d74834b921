package dev.polystack.platform.resourcetype;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What happens to drift a check finds on a resource: only an issue ({@code observe}), a reconcile deployment
 * that waits for approval ({@code approve}), or one that runs at once ({@code auto}). Drift whose repair
 * deletes or replaces something is never reconciled without approval, whatever the policy.
 */
public enum ReconcilePolicy {
    OBSERVE("observe"),
    APPROVE("approve"),
    AUTO("auto");

    private final String wireName;

    ReconcilePolicy(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static ReconcilePolicy fromWire(String value) {
        for (ReconcilePolicy policy : values()) {
            if (policy.wireName.equals(value)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("must be observe, approve or auto");
    }
}
