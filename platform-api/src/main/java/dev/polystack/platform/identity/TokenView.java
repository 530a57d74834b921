package dev.polystack.platform.identity;

import java.time.Instant;
import java.util.UUID;

/** An API token without its secret: the prefix helps recognise it. */
public record TokenView(
        UUID id,
        String name,
        String prefix,
        Instant createdAt,
        Instant expiresAt,
        Instant lastUsedAt,
        Instant revokedAt) {

    static TokenView of(ApiToken token) {
        return new TokenView(
                token.id(),
                token.name(),
                token.displayPrefix(),
                token.createdAt(),
                token.expiresAt(),
                token.lastUsedAt(),
                token.revokedAt());
    }
}
