package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** What a deployment does. {@code dry-run} is answered at once and never stored. */
public enum DeploymentMode {
    DRY_RUN("dry-run"),
    PLAN("plan"),
    DEPLOY("deploy"),
    DESTROY("destroy"),
    ROLLBACK("rollback"),
    /** Plans each resource's last applied configuration to find drift; never applies. Started by {@code POST …/checks}. */
    CHECK("check");

    private final String wireName;

    DeploymentMode(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static DeploymentMode fromWire(String value) {
        for (DeploymentMode mode : values()) {
            if (mode.wireName.equals(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be one of dry-run, plan, deploy, destroy, rollback");
    }
}
