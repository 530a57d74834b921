package dev.polystack.platform.environment;

import com.fasterxml.jackson.annotation.JsonValue;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** The life of an environment: active until deleted; deletion tears its resources down first. */
public enum EnvironmentStatus {
    ACTIVE("active"),
    DELETING("deleting"),
    DELETE_FAILED("delete_failed");

    private static final Map<EnvironmentStatus, Set<EnvironmentStatus>> NEXT = new EnumMap<>(EnvironmentStatus.class);

    static {
        NEXT.put(ACTIVE, EnumSet.of(DELETING));
        NEXT.put(DELETING, EnumSet.of(DELETE_FAILED, ACTIVE));
        NEXT.put(DELETE_FAILED, EnumSet.of(DELETING, ACTIVE));
    }

    private final String wireName;

    EnvironmentStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public boolean canMoveTo(EnvironmentStatus next) {
        return NEXT.get(this).contains(next);
    }

    /** Stores the wire name, as the CHECK constraint expects. */
    @Converter
    public static class ColumnConverter implements AttributeConverter<EnvironmentStatus, String> {
        @Override
        public String convertToDatabaseColumn(EnvironmentStatus status) {
            return status.wireName;
        }

        @Override
        public EnvironmentStatus convertToEntityAttribute(String value) {
            for (EnvironmentStatus status : values()) {
                if (status.wireName.equals(value)) {
                    return status;
                }
            }
            throw new IllegalStateException("unknown environment status " + value);
        }
    }
}
