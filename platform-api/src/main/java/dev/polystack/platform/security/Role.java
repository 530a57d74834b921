package dev.polystack.platform.security;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

import java.util.Arrays;
import java.util.stream.Collectors;

/** A member's role in an organization; each role may do everything the roles below it may. */
public enum Role {
    VIEWER("viewer"),
    DEVELOPER("developer"),
    PLATFORM_ENGINEER("platform-engineer"),
    OWNER("owner");

    private final String wireName;

    Role(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    public boolean includes(Role other) {
        return compareTo(other) >= 0;
    }

    @JsonCreator
    public static Role fromWire(String value) {
        for (Role role : values()) {
            if (role.wireName.equals(value)) {
                return role;
            }
        }
        throw new IllegalArgumentException(
                "must be one of " + Arrays.stream(values()).map(Role::wireName).collect(Collectors.joining(", ")));
    }

    /** Stores the wire name, the same text the CHECK constraint allows. */
    @Converter
    public static class ColumnConverter implements AttributeConverter<Role, String> {
        @Override
        public String convertToDatabaseColumn(Role role) {
            return role == null ? null : role.wireName;
        }

        @Override
        public Role convertToEntityAttribute(String value) {
            return value == null ? null : fromWire(value);
        }
    }
}
