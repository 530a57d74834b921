package dev.polystack.runner.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Locale;

/** How a job ended (the control plane's {@code JobResult.status}). */
public enum JobStatus {
    @JsonProperty("succeeded")
    SUCCEEDED,
    @JsonProperty("failed")
    FAILED,
    @JsonProperty("cancelled")
    CANCELLED;

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
