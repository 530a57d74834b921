package dev.polystack.platform.common.web;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Waits for something to become available without holding a thread: it looks (on a worker), and if
 * there is nothing yet, parks on a notification future until it is woken (then looks again) or the
 * time is up (then answers that there is nothing: no look, since nothing woke it, and a caller that
 * waits again starts with a look). The waiter is registered before each look, so a notification sent
 * during the look is not missed.
 *
 * <p>The wait is made of plain futures, not of Mutiny operators: thousands of runners wait at once, and
 * every Mutiny stage captured its own copy of the request's contexts, held for the whole wait (about
 * 27 captured contexts per waiting claim). The look needs no request context: callers resolve what they
 * need from the request before they wait.
 */
public final class LongPoll {

    private LongPoll() {}

    public interface Waiter {
        CompletableFuture<Void> register();

        void unregister(CompletableFuture<Void> future);
    }

    public static <T> Uni<Optional<T>> until(Supplier<Optional<T>> look, Waiter waiter, Duration timeout) {
        return until(look, look, waiter, timeout);
    }

    /**
     * As {@link #until(Supplier, Waiter, Duration)}, with a first look of its own: the one a wait begins with, which
     * nothing announced, may first check cheaply whether there is anything at all; the looks after a wake-up, which
     * something announced, go straight to {@code look}.
     */
    public static <T> Uni<Optional<T>> until(
            Supplier<Optional<T>> first, Supplier<Optional<T>> look, Waiter waiter, Duration timeout) {
        return Uni.createFrom().completionStage(() -> {
            CompletableFuture<Optional<T>> answer = new CompletableFuture<>();
            attempt(
                    first,
                    look,
                    waiter,
                    System.nanoTime() + timeout.toNanos(),
                    answer,
                    Infrastructure.getDefaultWorkerPool());
            return answer;
        });
    }

    private static <T> void attempt(
            Supplier<Optional<T>> now,
            Supplier<Optional<T>> look,
            Waiter waiter,
            long deadline,
            CompletableFuture<Optional<T>> answer,
            Executor workers) {
        CompletableFuture<Void> wake = waiter.register();
        workers.execute(() -> {
            Optional<T> found;
            try {
                found = now.get();
            } catch (Throwable e) {
                waiter.unregister(wake);
                answer.completeExceptionally(e);
                return;
            }
            long remaining = deadline - System.nanoTime();
            if (found.isPresent() || remaining <= 0 || answer.isDone()) {
                waiter.unregister(wake);
                answer.complete(found);
                return;
            }
            // whether it woke is said by the value: the time running out completes the wait with false
            wake.thenApply(woken -> Boolean.TRUE)
                    .completeOnTimeout(Boolean.FALSE, remaining, TimeUnit.NANOSECONDS)
                    .whenComplete((woken, failure) -> {
                        waiter.unregister(wake);
                        if (!Boolean.TRUE.equals(woken) || answer.isDone()) {
                            // nothing woke it (or the caller went away): there is nothing new to look for, and the
                            // caller's next wait begins with a look of its own
                            answer.complete(Optional.empty());
                            return;
                        }
                        if (deadline - System.nanoTime() <= 0) {
                            workers.execute(() -> {
                                try {
                                    answer.complete(look.get());
                                } catch (Throwable e) {
                                    answer.completeExceptionally(e);
                                }
                            });
                        } else {
                            attempt(look, look, waiter, deadline, answer, workers);
                        }
                    });
        });
    }
}
