package dev.polystack.platform.deployment.scheduling;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** How results share advances: without a database, an engine that only counts. */
class AdvancerTest {

    /** Counts advances per deployment, and how many of one deployment ever ran at once. */
    static final class CountingEngine extends DeploymentEngine {
        final Map<UUID, AtomicInteger> started = new ConcurrentHashMap<>();
        final Map<UUID, AtomicInteger> finished = new ConcurrentHashMap<>();
        final Map<UUID, AtomicInteger> running = new ConcurrentHashMap<>();
        final AtomicInteger mostAtOnce = new AtomicInteger();
        final AtomicInteger runningOverall = new AtomicInteger();
        final AtomicInteger mostAtOnceOverall = new AtomicInteger();
        /** When set, each advance waits (up to a second) until this many advances have started. */
        volatile CountDownLatch rendezvous;

        final AtomicInteger failuresLeft = new AtomicInteger();

        @Override
        public void advance(UUID deploymentId, Set<UUID> ended) {
            started.computeIfAbsent(deploymentId, k -> new AtomicInteger()).incrementAndGet();
            int now = running.computeIfAbsent(deploymentId, k -> new AtomicInteger())
                    .incrementAndGet();
            mostAtOnce.accumulateAndGet(now, Math::max);
            mostAtOnceOverall.accumulateAndGet(runningOverall.incrementAndGet(), Math::max);
            try {
                CountDownLatch meet = rendezvous;
                if (meet != null) {
                    meet.countDown();
                    // long enough for a loaded machine to start the other thread. Advances that never run side by side
                    // still fail the test: the first waits here the whole 10 s, longer than the test waits for both
                    meet.await(10, TimeUnit.SECONDS);
                }
                Thread.sleep(15);
                if (failuresLeft.getAndDecrement() > 0) {
                    throw new IllegalStateException("the database is away");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                runningOverall.decrementAndGet();
                running.get(deploymentId).decrementAndGet();
                finished.computeIfAbsent(deploymentId, k -> new AtomicInteger()).incrementAndGet();
            }
        }

        int started(UUID id) {
            return started.getOrDefault(id, new AtomicInteger()).get();
        }

        int finished(UUID id) {
            return finished.getOrDefault(id, new AtomicInteger()).get();
        }
    }

    final CountingEngine engine = new CountingEngine();
    final Advancer advancer = new Advancer();
    final ExecutorService results = Executors.newFixedThreadPool(20);

    {
        advancer.engine = engine;
    }

    @AfterEach
    void stop() {
        results.shutdownNow();
        advancer.stop();
    }

    @Test
    void everyRequestIsAnsweredByAnAdvanceThatStartedAfterIt() throws Exception {
        UUID deployment = UUID.randomUUID();
        int requests = 200;
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<String>> checks = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            checks.add(CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        int startedBefore = engine.started(deployment);
                        advancer.advanceSoon(deployment).join();
                        // an advance that was running when the request came may not have seen its result: the
                        // answer must come from a later one, so at least startedBefore + 1 advances have ended
                        int finishedAfter = engine.finished(deployment);
                        return finishedAfter >= startedBefore + 1
                                ? null
                                : "answered after " + finishedAfter + " advances, " + startedBefore
                                        + " had started before the request";
                    },
                    results));
        }
        go.countDown();
        for (CompletableFuture<String> check : checks) {
            assertThat(check.get(30, TimeUnit.SECONDS)).isNull();
        }
        assertThat(engine.mostAtOnce.get())
                .as("advances of one deployment at once")
                .isEqualTo(1);
        assertThat(engine.started(deployment))
                .as("advances for %d requests arriving together", requests)
                .isGreaterThanOrEqualTo(1)
                .isLessThan(requests / 2);
    }

    @Test
    void deploymentsAdvanceSideBySide() throws Exception {
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        engine.rendezvous = new CountDownLatch(2);
        CompletableFuture<Void> both = CompletableFuture.allOf(advancer.advanceSoon(a), advancer.advanceSoon(b));
        both.get(10, TimeUnit.SECONDS);
        assertThat(engine.started(a)).isEqualTo(1);
        assertThat(engine.started(b)).isEqualTo(1);
        assertThat(engine.mostAtOnceOverall.get())
                .as("advances of two deployments at once")
                .isEqualTo(2);
    }

    @Test
    void aFailedAdvanceStillAnswersAndTheNextRequestIsServed() throws Exception {
        UUID deployment = UUID.randomUUID();
        engine.failuresLeft.set(1);
        advancer.advanceSoon(deployment).get(10, TimeUnit.SECONDS);
        advancer.advanceSoon(deployment).get(10, TimeUnit.SECONDS);
        assertThat(engine.finished(deployment)).isEqualTo(2);
    }
}
