package dev.polystack.platform.deployment.model;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** queued → running → done; a queued job may be cancelled before a runner takes it; a running one may be lost. */
public enum JobStatus {
    QUEUED("queued"),
    RUNNING("running"),
    DONE("done"),
    CANCELLED("cancelled"),
    LOST("lost");

    private static final Map<JobStatus, Set<JobStatus>> NEXT = new EnumMap<>(JobStatus.class);

    static {
        NEXT.put(QUEUED, EnumSet.of(RUNNING, CANCELLED));
        NEXT.put(RUNNING, EnumSet.of(DONE, CANCELLED, LOST));
        for (JobStatus terminal : EnumSet.of(DONE, CANCELLED, LOST)) {
            NEXT.put(terminal, EnumSet.noneOf(JobStatus.class));
        }
    }

    private final String wireName;

    JobStatus(String wireName) {
        this.wireName = wireName;
    }

    public boolean isTerminal() {
        return NEXT.get(this).isEmpty();
    }

    public boolean canMoveTo(JobStatus next) {
        return NEXT.get(this).contains(next);
    }

    public String wireName() {
        return wireName;
    }

    static JobStatus fromWire(String value) {
        for (JobStatus status : values()) {
            if (status.wireName.equals(value)) {
                return status;
            }
        }
        throw new IllegalArgumentException(value);
    }

    @Converter
    public static class ColumnConverter implements AttributeConverter<JobStatus, String> {
        @Override
        public String convertToDatabaseColumn(JobStatus status) {
            return status.wireName;
        }

        @Override
        public JobStatus convertToEntityAttribute(String value) {
            return fromWire(value);
        }
    }
}
