package dev.polystack.runner.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.List;

/** A numbered batch of log lines. */
public record LogBatch(int batch, List<Line> lines) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Line(Instant time, String level, String type, String message) {

        /** This line cut to the control plane's limits. */
        public Line withinLimits() {
            return new Line(
                    time,
                    ProtocolLimits.cut(level, ProtocolLimits.LOG_LEVEL),
                    ProtocolLimits.cut(type, ProtocolLimits.LOG_TYPE),
                    ProtocolLimits.cut(message, ProtocolLimits.LOG_MESSAGE));
        }
    }

    /** This batch with every line cut to the control plane's limits. */
    public LogBatch withinLimits() {
        return new LogBatch(batch, lines.stream().map(Line::withinLimits).toList());
    }
}
