package dev.polystack.runner.protocol;

import java.time.Instant;

public record HeartbeatReply(boolean cancelled, Instant leaseExpiresAt) {}
