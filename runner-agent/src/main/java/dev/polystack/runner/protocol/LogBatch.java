package dev.polystack.runner.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.List;

/** A numbered batch of log lines. */
public record LogBatch(int batch, List<Line> lines) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Line(Instant time, String level, String type, String message) {
    }
}
