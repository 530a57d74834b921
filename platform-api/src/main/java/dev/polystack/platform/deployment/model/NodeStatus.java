package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.annotation.JsonValue;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * pending → queued → running → succeeded | failed | cancelled; a pending node may also end as
 * skipped (a dependency did not succeed), unchanged (nothing to do), failed (its inputs could not be
 * resolved), cancelled, or succeeded (a destroy whose resource is already gone, action no-op). A node
 * whose runner was lost may go back to queued for another attempt. In a deployment that needs approval a
 * node is first planned (pending or running → planned; no job where nothing can be planned yet), and after the
 * approval goes on from planned as from pending.
 */
public enum NodeStatus {
    PENDING("pending"),
    QUEUED("queued"),
    RUNNING("running"),
    PLANNED("planned"),
    SUCCEEDED("succeeded"),
    FAILED("failed"),
    SKIPPED("skipped"),
    CANCELLED("cancelled"),
    UNCHANGED("unchanged");

    private static final Map<NodeStatus, Set<NodeStatus>> NEXT = new EnumMap<>(NodeStatus.class);

    static {
        NEXT.put(PENDING, EnumSet.of(QUEUED, PLANNED, SKIPPED, UNCHANGED, FAILED, CANCELLED, SUCCEEDED));
        NEXT.put(QUEUED, EnumSet.of(RUNNING, SUCCEEDED, FAILED, CANCELLED));
        NEXT.put(RUNNING, EnumSet.of(QUEUED, PLANNED, SUCCEEDED, FAILED, CANCELLED));
        NEXT.put(PLANNED, EnumSet.of(QUEUED, SKIPPED, UNCHANGED, FAILED, CANCELLED, SUCCEEDED));
        for (NodeStatus terminal : EnumSet.of(SUCCEEDED, FAILED, SKIPPED, CANCELLED, UNCHANGED)) {
            NEXT.put(terminal, EnumSet.noneOf(NodeStatus.class));
        }
    }

    private final String wireName;

    NodeStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public boolean isTerminal() {
        return NEXT.get(this).isEmpty();
    }

    /** Whether dependents may run after a dependency ended this way. */
    public boolean letsDependentsRun() {
        return this == SUCCEEDED || this == UNCHANGED;
    }

    public boolean canMoveTo(NodeStatus next) {
        return NEXT.get(this).contains(next);
    }

    static NodeStatus fromWire(String value) {
        for (NodeStatus status : values()) {
            if (status.wireName.equals(value)) {
                return status;
            }
        }
        throw new IllegalArgumentException(value);
    }

    @Converter
    public static class ColumnConverter implements AttributeConverter<NodeStatus, String> {
        @Override
        public String convertToDatabaseColumn(NodeStatus status) {
            return status.wireName;
        }

        @Override
        public NodeStatus convertToEntityAttribute(String value) {
            return fromWire(value);
        }
    }
}
