package dev.polystack.platform.runner;

import com.github.benmanes.caffeine.cache.Scheduler;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The verified runner tokens a control plane keeps: each until it expires, whether or not it is sent again. */
class VerifiedTokensTest {

    private static final Instant START = Instant.parse("2026-12-06T06:00:00Z");

    /** A clock and a ticker that move together, by hand. */
    private final AtomicLong nanos = new AtomicLong();

    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return START.plusNanos(nanos.get());
        }
    };

    private final VerifiedTokens tokens = new VerifiedTokens(clock, nanos::get, Scheduler.disabledScheduler());

    private static VerifiedTokens.Verified expiringAt(Instant expiry) {
        return new VerifiedTokens.Verified(
                UUID.randomUUID(), "acme", "runner-1", "-----BEGIN PUBLIC KEY-----", expiry.getEpochSecond());
    }

    private void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    @Test
    void aTokenIsKeptUntilItExpires() {
        tokens.put("a", expiringAt(START.plusSeconds(300)));

        advance(Duration.ofSeconds(299));
        assertThat(tokens.get("a")).as("a second before its expiry").isPresent();

        advance(Duration.ofSeconds(1));
        assertThat(tokens.get("a")).as("at its expiry").isEmpty();
    }

    @Test
    void expiredTokensAreForgottenThoughNobodySendsThemAgain() {
        // 5,000 runners that went away: their tokens must not stay in the heap
        for (int i = 0; i < 5_000; i++) {
            tokens.put("runner-" + i, expiringAt(START.plusSeconds(60 + i % 240)));
        }
        tokens.put("still-here", expiringAt(START.plusSeconds(600)));
        assertThat(tokens.size()).isEqualTo(5_001);

        advance(Duration.ofSeconds(301));

        assertThat(tokens.size()).as("only the token that has not expired").isEqualTo(1);
        assertThat(tokens.get("still-here")).isPresent();
    }

    @Test
    void aTokenThatExpiredBeforeItWasKeptIsNotReturned() {
        tokens.put("late", expiringAt(START.minusSeconds(1)));

        assertThat(tokens.get("late")).isEmpty();
        assertThat(tokens.size()).isZero();
    }

    @Test
    void aForgottenTokenIsGone() {
        tokens.put("a", expiringAt(START.plusSeconds(300)));

        tokens.forget("a");

        assertThat(tokens.get("a")).isEmpty();
        assertThat(tokens.size()).isZero();
    }
}
