package dev.polystack.platform.deployment.logs;

import java.util.UUID;

/** One stored log line of a deployment's job. */
public record LogLine(
        String node,
        UUID jobId,
        int attempt,
        int batch,
        int line,
        String time,
        String level,
        String type,
        String message) {}
