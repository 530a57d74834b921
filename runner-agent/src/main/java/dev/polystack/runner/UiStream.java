package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.runner.protocol.LogBatch;

import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/**
 * Reads one line of OpenTofu's {@code -json} UI stream (or Terraform's) into a log line: level,
 * message type and message. A line that is not JSON is kept as text; error diagnostics keep their
 * summary and detail, so that failures read well in the logs.
 */
public final class UiStream {

    private static final ObjectMapper JSON = new ObjectMapper();

    private UiStream() {}

    /** The parsed line, or null for a blank one. */
    public static LogBatch.Line parse(String raw) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        String line = raw.strip();
        if (line.startsWith("{")) {
            try {
                JsonNode message = JSON.readTree(line);
                if (message != null && message.isObject() && message.has("@message")) {
                    String level = message.path("@level").asText("info");
                    String type = message.path("type").asText(null);
                    String text = message.path("@message").asText();
                    if ("diagnostic".equals(type)) {
                        text = describe(message.path("diagnostic"), text);
                    }
                    return new LogBatch.Line(time(message.path("@timestamp").asText(null)), level, type, text);
                }
            } catch (IOException e) {
                // not JSON after all: keep it as text
            }
        }
        return new LogBatch.Line(Instant.now(), "text", null, raw);
    }

    /** A stderr line as a message of the {@code -json} stream's shape, type {@code stderr}. */
    static String stderrMessage(String raw, String level) {
        var message = JSON.createObjectNode();
        message.put("@level", level);
        message.put("@message", raw);
        message.put("type", "stderr");
        return message.toString();
    }

    /** A stderr line as a log line. */
    static LogBatch.Line stderrLine(String raw, String level) {
        return new LogBatch.Line(Instant.now(), level, "stderr", raw);
    }

    /** "Error: summary: detail (main.tf line 2)". */
    static String describe(JsonNode diagnostic, String fallback) {
        if (diagnostic == null || diagnostic.isMissingNode()) {
            return fallback;
        }
        StringBuilder out = new StringBuilder();
        out.append("error".equals(diagnostic.path("severity").asText()) ? "Error: " : "Warning: ");
        out.append(diagnostic.path("summary").asText(fallback));
        String detail = diagnostic.path("detail").asText("");
        if (!detail.isBlank()) {
            out.append(": ").append(detail);
        }
        JsonNode range = diagnostic.path("range");
        if (range.has("filename")) {
            out.append(" (")
                    .append(range.path("filename").asText())
                    .append(" line ")
                    .append(range.path("start").path("line").asInt())
                    .append(')');
        }
        return out.toString();
    }

    private static Instant time(String timestamp) {
        if (timestamp == null) {
            return Instant.now();
        }
        try {
            return OffsetDateTime.parse(timestamp).toInstant();
        } catch (DateTimeParseException e) {
            return Instant.now();
        }
    }
}
