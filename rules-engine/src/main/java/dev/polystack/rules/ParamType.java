package dev.polystack.rules;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The type of a module parameter, and which JSON values it accepts. */
public enum ParamType {
    STRING("string"),
    NUMBER("number"),
    BOOL("bool"),
    LIST("list"),
    MAP("map"),
    ANY("any");

    private final String wireName;

    ParamType(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static ParamType fromWire(String value) {
        for (ParamType type : values()) {
            if (type.wireName.equals(value)) {
                return type;
            }
        }
        throw new IllegalArgumentException("must be one of "
                + Arrays.stream(values()).map(ParamType::wireName).collect(Collectors.joining(", ")));
    }

    /** Whether a JSON value is of this type; null is never accepted (leave the param out instead). */
    public boolean accepts(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return false;
        }
        return switch (this) {
            case STRING -> value.isTextual();
            case NUMBER -> value.isNumber();
            case BOOL -> value.isBoolean();
            case LIST -> value.isArray();
            case MAP -> value.isObject();
            case ANY -> true;
        };
    }

    /** "a string", "a list", ... for messages. */
    public String describe() {
        return switch (this) {
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOL -> "a boolean";
            case LIST -> "a list";
            case MAP -> "a map";
            case ANY -> "any value";
        };
    }
}
