package dev.polystack.platform.manifest;

import java.time.Instant;

/** A stored manifest version; {@code content} is left out of lists. */
public record ManifestView(int version, ManifestFormat format, String content, Instant createdAt, String createdBy) {}
