package dev.polystack.platform.state;

import java.time.Instant;
import java.util.UUID;

/** A stored state version, without its content. */
public record StateVersionView(UUID id, Long serial, String lineage, int size, UUID jobId, Instant createdAt) {}
