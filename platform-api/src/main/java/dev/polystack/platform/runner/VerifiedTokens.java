package dev.polystack.platform.runner;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Scheduler;
import com.github.benmanes.caffeine.cache.Ticker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * Runner tokens whose signature and claims were verified, each until it expires. An agent sends the same token for
 * minutes, and checking an Ed25519 signature on every claim, heartbeat and log batch cost about a tenth of the control
 * plane's CPU under load. An expired token is forgotten when it expires, whether or not it is sent again: 5,000 runners
 * that went away left their tokens in the heap until 20,000 had gathered, and then every runner's next request paid a
 * signature check at once.
 */
final class VerifiedTokens {

    /** What a verified token said, and the runner key that verified it. */
    record Verified(UUID orgId, String orgSlug, String subject, String publicKey, long expiresAt) {}

    /** At most this many tokens are kept; beyond it the least used are verified again when they come back. */
    static final int MAX_VERIFIED = 20_000;

    private final Clock clock;
    private final Cache<String, Verified> verified;

    VerifiedTokens(Clock clock) {
        this(clock, Ticker.systemTicker(), Scheduler.systemScheduler());
    }

    /** {@code ticker} measures the time to each token's expiry; {@code scheduler} removes expired tokens promptly. */
    VerifiedTokens(Clock clock, Ticker ticker, Scheduler scheduler) {
        this.clock = clock;
        this.verified = Caffeine.newBuilder()
                .maximumSize(MAX_VERIFIED)
                .expireAfter(Expiry.creating((String token, Verified value) -> untilExpiry(value)))
                .ticker(ticker)
                .scheduler(scheduler)
                .build();
    }

    private Duration untilExpiry(Verified value) {
        Duration left = Duration.between(clock.instant(), Instant.ofEpochSecond(value.expiresAt()));
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** The token, if it was verified and has not expired. */
    Optional<Verified> get(String token) {
        Verified known = verified.getIfPresent(token);
        if (known == null) {
            return Optional.empty();
        }
        // the cache's expiry only frees memory, timed by its ticker; the token's own expiry is wall-clock time
        if (known.expiresAt() <= clock.instant().getEpochSecond()) {
            verified.invalidate(token);
            return Optional.empty();
        }
        return Optional.of(known);
    }

    /** Keeps a token until it expires; one that has already expired is not kept. */
    void put(String token, Verified value) {
        if (value.expiresAt() <= clock.instant().getEpochSecond()) {
            return;
        }
        verified.put(token, value);
    }

    void forget(String token) {
        verified.invalidate(token);
    }

    /** How many tokens are kept, after removing the expired ones. */
    long size() {
        verified.cleanUp();
        return verified.estimatedSize();
    }
}
