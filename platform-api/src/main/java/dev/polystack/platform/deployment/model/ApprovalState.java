package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.annotation.JsonValue;
import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/**
 * A gated deployment's way through its approval: planning → awaiting → approved | rejected | expired | stale,
 * or planning → not-needed when its plan changes nothing; cancelled (while it planned or waited) and
 * plan-failed end it before anyone decided.
 */
public enum ApprovalState {
    PLANNING("planning"),
    AWAITING("awaiting"),
    APPROVED("approved"),
    NOT_NEEDED("not-needed"),
    REJECTED("rejected"),
    EXPIRED("expired"),
    /** A planned resource's state moved after the plan: the approvals would not be of what applies. */
    STALE("stale"),
    CANCELLED("cancelled"),
    PLAN_FAILED("plan-failed");

    private final String wireName;

    ApprovalState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    @Converter
    public static class ColumnConverter implements AttributeConverter<ApprovalState, String> {
        @Override
        public String convertToDatabaseColumn(ApprovalState state) {
            return state == null ? null : state.wireName;
        }

        @Override
        public ApprovalState convertToEntityAttribute(String value) {
            if (value == null) {
                return null;
            }
            for (ApprovalState state : values()) {
                if (state.wireName.equals(value)) {
                    return state;
                }
            }
            throw new IllegalArgumentException(value);
        }
    }
}
