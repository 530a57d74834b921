package dev.polystack.platform.common.web;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Waits for something to become available without holding a thread: it looks (on a worker), and if
 * there is nothing yet, parks on a notification future until it is woken (then looks again) or the
 * time is up (then answers that there is nothing: no look, since nothing woke it, and a caller that
 * waits again starts with a look). The waiter is registered before each look, so a notification sent
 * during the look is not missed.
 */
public final class LongPoll {

    private LongPoll() {
    }

    public interface Waiter {
        CompletableFuture<Void> register();

        void unregister(CompletableFuture<Void> future);
    }

    public static <T> Uni<Optional<T>> until(Supplier<Optional<T>> look, Waiter waiter, Duration timeout) {
        return attempt(look, waiter, Instant.now().plus(timeout));
    }

    private static <T> Uni<Optional<T>> attempt(Supplier<Optional<T>> look, Waiter waiter, Instant deadline) {
        CompletableFuture<Void> wake = waiter.register();
        return Uni.createFrom().item(look).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onFailure().invoke(() -> waiter.unregister(wake))
                .chain(found -> {
                    Duration remaining = Duration.between(Instant.now(), deadline);
                    if (found.isPresent() || remaining.isNegative() || remaining.isZero()) {
                        waiter.unregister(wake);
                        return Uni.createFrom().item(found);
                    }
                    // (the time running out cancels the future, so whether it woke is said by the item, not by the future)
                    return Uni.createFrom().completionStage(wake).map(woken -> Boolean.TRUE)
                            .ifNoItem().after(remaining).recoverWithItem(Boolean.FALSE)
                            .chain(woken -> {
                                waiter.unregister(wake);
                                if (!woken) {
                                    // nothing woke it: there is nothing new to look for, and the caller's next wait
                                    // begins with a look of its own
                                    return Uni.createFrom().item(Optional.<T>empty());
                                }
                                return Duration.between(Instant.now(), deadline).isNegative()
                                        ? Uni.createFrom().item(look).runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                                        : attempt(look, waiter, deadline);
                            });
                });
    }
}
