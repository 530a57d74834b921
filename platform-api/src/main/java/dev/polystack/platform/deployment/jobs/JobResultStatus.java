package dev.polystack.platform.deployment.jobs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.polystack.platform.deployment.model.NodeStatus;

/** How a job ended, as the runner reports it in its result. */
public enum JobResultStatus {
    SUCCEEDED("succeeded", NodeStatus.SUCCEEDED),
    FAILED("failed", NodeStatus.FAILED),
    CANCELLED("cancelled", NodeStatus.CANCELLED);

    private final String wireName;
    private final NodeStatus nodeStatus;

    JobResultStatus(String wireName, NodeStatus nodeStatus) {
        this.wireName = wireName;
        this.nodeStatus = nodeStatus;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** The status the job's node ends in, before the engine's own checks of the result (outputs, schema). */
    public NodeStatus nodeStatus() {
        return nodeStatus;
    }

    @JsonCreator
    public static JobResultStatus fromWire(String value) {
        for (JobResultStatus outcome : values()) {
            if (outcome.wireName.equals(value)) {
                return outcome;
            }
        }
        throw new IllegalArgumentException("must be succeeded, failed or cancelled");
    }
}
