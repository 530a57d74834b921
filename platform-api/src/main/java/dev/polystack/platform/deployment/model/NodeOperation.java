package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.annotation.JsonValue;

/** What a node's job does with OpenTofu. */
public enum NodeOperation {
    PLAN("plan"),
    APPLY("apply"),
    DESTROY("destroy"),
    /** {@code plan -detailed-exitcode} of the last applied configuration, never applied. */
    CHECK("check");

    private final String wireName;

    NodeOperation(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    static NodeOperation fromWire(String value) {
        for (NodeOperation operation : values()) {
            if (operation.wireName.equals(value)) {
                return operation;
            }
        }
        throw new IllegalArgumentException(value);
    }
}
