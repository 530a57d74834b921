package dev.polystack.runner.protocol;

import com.fasterxml.jackson.annotation.JsonEnumDefaultValue;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Locale;

/** What a claimed job asks the runner to do (the control plane's {@code ClaimedJob.operation}). */
public enum Operation {
    @JsonProperty("plan")
    PLAN,
    @JsonProperty("apply")
    APPLY,
    @JsonProperty("destroy")
    DESTROY,
    @JsonProperty("check")
    CHECK,
    /** An operation of a newer control plane than this agent: the job fails, saying so, instead of the claim. */
    @JsonEnumDefaultValue
    UNKNOWN;

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
