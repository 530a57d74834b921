package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.annotation.JsonValue;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * queued → running → succeeded | failed | cancelled (a queued deployment may also be cancelled). A deployment
 * that needs approval goes from running to awaiting_approval once it has planned, and from there back to
 * running when approved, or to cancelled (rejected, expired, cancelled) or failed (its plan went stale).
 */
public enum DeploymentStatus {
    QUEUED("queued"),
    RUNNING("running"),
    AWAITING_APPROVAL("awaiting_approval"),
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    CANCELLED("cancelled");

    private static final Map<DeploymentStatus, Set<DeploymentStatus>> NEXT = new EnumMap<>(DeploymentStatus.class);

    static {
        NEXT.put(QUEUED, EnumSet.of(RUNNING, CANCELLED));
        NEXT.put(RUNNING, EnumSet.of(AWAITING_APPROVAL, SUCCEEDED, FAILED, CANCELLED));
        NEXT.put(AWAITING_APPROVAL, EnumSet.of(RUNNING, FAILED, CANCELLED));
        NEXT.put(SUCCEEDED, EnumSet.noneOf(DeploymentStatus.class));
        NEXT.put(FAILED, EnumSet.noneOf(DeploymentStatus.class));
        NEXT.put(CANCELLED, EnumSet.noneOf(DeploymentStatus.class));
    }

    /** The statuses of a deployment that holds or waits for its environment. */
    public static final List<DeploymentStatus> UNFINISHED = List.of(QUEUED, RUNNING, AWAITING_APPROVAL);

    private final String wireName;

    DeploymentStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return NEXT.get(this).isEmpty();
    }

    public boolean canMoveTo(DeploymentStatus next) {
        return NEXT.get(this).contains(next);
    }

    static DeploymentStatus fromWire(String value) {
        for (DeploymentStatus status : values()) {
            if (status.wireName.equals(value)) {
                return status;
            }
        }
        throw new IllegalArgumentException(value);
    }

    @Converter
    public static class ColumnConverter implements AttributeConverter<DeploymentStatus, String> {
        @Override
        public String convertToDatabaseColumn(DeploymentStatus status) {
            return status.wireName;
        }

        @Override
        public DeploymentStatus convertToEntityAttribute(String value) {
            return fromWire(value);
        }
    }
}
