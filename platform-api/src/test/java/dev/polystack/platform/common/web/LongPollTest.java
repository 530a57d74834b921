package dev.polystack.platform.common.web;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** The long poll without Quarkus: a look, a wait, and a look again only when something woke it. */
class LongPollTest {

    /** A waiter whose registrations a test can complete, counting what it was asked to forget. */
    private static final class Waiter implements LongPoll.Waiter {
        final AtomicReference<CompletableFuture<Void>> current = new AtomicReference<>();
        final AtomicInteger forgotten = new AtomicInteger();

        @Override
        public CompletableFuture<Void> register() {
            CompletableFuture<Void> future = new CompletableFuture<>();
            current.set(future);
            return future;
        }

        @Override
        public void unregister(CompletableFuture<Void> future) {
            forgotten.incrementAndGet();
        }
    }

    @Test
    void aWaitNothingWokeEndsWithoutASecondLook() {
        AtomicInteger looks = new AtomicInteger();
        Waiter waiter = new Waiter();
        Optional<String> found = LongPoll.until(
                        () -> {
                            looks.incrementAndGet();
                            return Optional.<String>empty();
                        },
                        waiter,
                        Duration.ofMillis(200))
                .await()
                .atMost(Duration.ofSeconds(5));
        assertThat(found).isEmpty();
        assertThat(looks).as("one look: nothing woke it").hasValue(1);
        assertThat(waiter.forgotten).hasValue(1);
    }

    @Test
    void aWakeUpLooksAgainAndFindsIt() {
        AtomicInteger looks = new AtomicInteger();
        Waiter waiter = new Waiter();
        var pending = LongPoll.until(
                        () -> looks.incrementAndGet() >= 2 ? Optional.of("job") : Optional.<String>empty(),
                        waiter,
                        Duration.ofSeconds(10))
                .subscribeAsCompletionStage();
        while (looks.get() < 1 || waiter.current.get() == null) {
            Thread.onSpinWait();
        }
        waiter.current.get().complete(null);
        assertThat(pending.toCompletableFuture().join()).hasValue("job");
        assertThat(looks).hasValue(2);
    }

    @Test
    void theFirstLookIsItsOwnAndALookAfterAWakeUpIsTheOther() {
        AtomicInteger first = new AtomicInteger();
        AtomicInteger again = new AtomicInteger();
        Waiter waiter = new Waiter();
        var pending = LongPoll.until(
                        () -> {
                            first.incrementAndGet();
                            return Optional.<String>empty();
                        },
                        () -> again.incrementAndGet() >= 2 ? Optional.of("job") : Optional.<String>empty(),
                        waiter,
                        Duration.ofSeconds(10))
                .subscribeAsCompletionStage();
        for (int looks = 1; looks <= 2; looks++) {
            // each look registers its wake-up before it looks
            while (first.get() + again.get() < looks) {
                Thread.onSpinWait();
            }
            waiter.current.get().complete(null);
        }
        assertThat(pending.toCompletableFuture().join()).hasValue("job");
        assertThat(first).as("the wait began with the first look only").hasValue(1);
        assertThat(again).as("each wake-up looked with the other").hasValue(2);
    }
}
