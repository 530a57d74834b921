package dev.polystack.platform.deployment.scheduling;

import java.util.UUID;

/** A check of an environment has ended and its findings are committed (a CDI event, fired on a worker thread). */
public record CheckFinished(UUID environmentId) {}
