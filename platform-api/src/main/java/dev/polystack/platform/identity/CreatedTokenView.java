package dev.polystack.platform.identity;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.Instant;
import java.util.UUID;

/** A token just made: the only time its value is shown. */
public record CreatedTokenView(
        UUID id,
        String name,
        String prefix,
        Instant createdAt,
        Instant expiresAt,

        @Schema(description = "The token; store it now, it is never shown again")
        String token) {}
