package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BulkheadTest {

    @Test
    void onlyTheBoundRunsAtOnceAndALaterCallerGets503WhenItsWaitRunsOut() throws Exception {
        Bulkhead bulkhead = new Bulkhead(1, Duration.ofMillis(200), "graph reads");
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> first = holding(bulkhead, release);

        assertThatThrownBy(() -> bulkhead.call(() -> "second")).isInstanceOfSatisfying(PlatformException.class, e -> {
            assertThat(e.type()).isEqualTo(ProblemType.UNAVAILABLE);
            assertThat(e.getMessage()).contains("too many graph reads");
        });

        release.countDown();
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("first");
        // the permit came back, also after a failure inside
        assertThatThrownBy(() -> bulkhead.call(() -> {
                    throw new IllegalStateException("boom");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThat(bulkhead.call(() -> "third")).isEqualTo("third");
    }

    @Test
    void aWaitingCallerRunsOnceAPermitIsFree() throws Exception {
        Bulkhead bulkhead = new Bulkhead(1, Duration.ofSeconds(10), "graph reads");
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> first = holding(bulkhead, release);
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> bulkhead.call(() -> "second"));
        Thread.sleep(200);
        assertThat(second).as("waits while the permit is taken").isNotDone();
        release.countDown();
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("first");
    }

    /** A call that holds the bulkhead's permit until {@code release}; returns once it is inside. */
    private static CompletableFuture<String> holding(Bulkhead bulkhead, CountDownLatch release)
            throws InterruptedException {
        CountDownLatch inside = new CountDownLatch(1);
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> bulkhead.call(() -> {
            inside.countDown();
            await(release);
            return "first";
        }));
        assertThat(inside.await(5, TimeUnit.SECONDS)).isTrue();
        return call;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
