package dev.polystack.platform.deployment.scheduling;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Advances deployments after job results, sharing the work between results that arrive together.
 *
 * <p>Advancing needs the deployment to itself, so advances of one deployment run one after another.
 * Twenty runner slots finishing at about the same time used to queue twenty advances, each reading
 * the whole deployment; here a request waits for the next advance that starts after it, and one
 * advance answers every request that came in while the previous one ran. Each request is made after
 * its result committed, so the advance that answers it sees the result.
 */
@ApplicationScoped
public class Advancer {

    private static final Logger LOG = Logger.getLogger(Advancer.class);

    @Inject
    DeploymentEngine engine;

    private final Map<UUID, Queue> queues = new ConcurrentHashMap<>();
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService executor = Executors.newFixedThreadPool(4, task -> {
        Thread thread = new Thread(task, "polystack-advance-" + threads.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Requests of one deployment that wait for the next advance, the nodes that ended meanwhile (null when
     * a request asked for a walk of every node), and whether an advance is running.
     */
    private static final class Queue {
        List<CompletableFuture<Void>> waiting = new ArrayList<>();
        Set<UUID> ended = new HashSet<>();
        boolean draining;
    }

    /**
     * Completes when an advance of the deployment that started after this call has ended. Failures are
     * logged, not passed on: the result that asked is recorded, and the sweeper advances the deployment.
     */
    public CompletableFuture<Void> advanceSoon(UUID deploymentId) {
        return advanceSoon(deploymentId, null);
    }

    /** The same, after the node {@code ended} ended: the advance looks at the dependents of the nodes that ended. */
    public CompletableFuture<Void> advanceSoon(UUID deploymentId, UUID ended) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean start;
        synchronized (queues) {
            Queue queue = queues.computeIfAbsent(deploymentId, id -> new Queue());
            queue.waiting.add(done);
            if (ended == null) {
                queue.ended = null;
            } else if (queue.ended != null) {
                queue.ended.add(ended);
            }
            start = !queue.draining;
            queue.draining = true;
        }
        if (start) {
            executor.execute(() -> drain(deploymentId));
        }
        return done;
    }

    private void drain(UUID deploymentId) {
        while (true) {
            List<CompletableFuture<Void>> batch;
            Set<UUID> ended;
            synchronized (queues) {
                Queue queue = queues.get(deploymentId);
                batch = queue.waiting;
                ended = queue.ended;
                if (batch.isEmpty()) {
                    queues.remove(deploymentId);
                    return;
                }
                queue.waiting = new ArrayList<>();
                queue.ended = new HashSet<>();
            }
            try {
                engine.advance(deploymentId, ended);
            } catch (Throwable e) {
                // whatever went wrong, the waiters are answered and later requests are still served
                LOG.warnf(
                        "Could not advance deployment %s after %d job results (the sweeper retries): %s",
                        deploymentId, batch.size(), e.getMessage());
            } finally {
                batch.forEach(waiter -> waiter.complete(null));
            }
        }
    }

    @PreDestroy
    void stop() {
        executor.shutdown();
    }
}
