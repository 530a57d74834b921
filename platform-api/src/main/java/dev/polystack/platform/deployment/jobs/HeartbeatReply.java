package dev.polystack.platform.deployment.jobs;

import java.time.Instant;

/** The answer to a heartbeat: whether the job was cancelled, and until when its lease now runs. */
public record HeartbeatReply(boolean cancelled, Instant leaseExpiresAt) {}
