package dev.polystack.platform.deployment.jobs;

import dev.polystack.platform.runner.RunnerCaller;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.URI;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Claims of a runner's next job made while the result that freed its slot is being recorded.
 *
 * <p>A result that asks for the next job used to record the result, commit, and only then claim: two transactions
 * one after the other, about twenty statements, all of them time between a slot's jobs. The claim's reads (the
 * queued job, its node, its inputs, its payload) and its writes (the node started, the job marked) do not need the
 * result stored (only the first look's counts do, and they allow for the reported job), so they run beside it, on a
 * thread of their own and in a transaction of their own. Only the claim's commit, which counts the running jobs,
 * waits for the result's commit ({@link JobService#tryClaimBeside}). A result that is refused keeps the claim from
 * keeping anything, the nodes it failed on the way included.
 *
 * <p>While it waits, the claim holds its job's and its node's row locks, its runner's row when it wrote the
 * runner's contact, and a connection: for as long as the result's own transaction runs, and never more than {@link
 * JobService#RESULT_WAIT}. The result's transaction takes no lock a claim holds (it locks its own job and node, and
 * writes rows no claim locks), and contact writes skip a runner's row that another transaction holds.
 *
 * <p>The claim starts once the result's transaction holds its connection (its first statement locked the job), so
 * a full connection pool can delay a claim but never keep a result from its commit. When every thread here is busy,
 * the claim is made after the result, as before.
 */
@ApplicationScoped
public class ClaimsBesideResults {

    private static final Logger LOG = Logger.getLogger(ClaimsBesideResults.class);

    /** At most this many claims run beside results at once; beyond it a claim follows its result. */
    static final int THREADS = 32;

    @Inject
    JobService jobService;

    private final AtomicInteger threads = new AtomicInteger();

    // no context is carried to these threads: a claim must not join the transaction of the result that starts it
    private final ThreadPoolExecutor executor =
            new ThreadPoolExecutor(0, THREADS, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), task -> {
                Thread thread = new Thread(task, "polystack-claim-beside-" + threads.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });

    /** One result's claim: started from inside the result's transaction, told how the result went, then read. */
    public final class Beside {
        private final RunnerCaller runner;
        private final URI baseUri;
        private final CompletableFuture<Boolean> resultStored = new CompletableFuture<>();
        private volatile CompletableFuture<JobService.Claim> claim;

        private Beside(RunnerCaller runner, URI baseUri) {
            this.runner = runner;
            this.baseUri = baseUri;
        }

        /** Starts the claim; never throws (it runs inside the result's transaction). */
        void start() {
            try {
                claim = CompletableFuture.supplyAsync(
                        () -> jobService.tryClaimBeside(runner, baseUri, resultStored), executor);
            } catch (RejectedExecutionException e) {
                LOG.debugf("No thread for a claim beside a result of runner %s; it follows the result", runner);
            } catch (RuntimeException e) {
                LOG.warnf("Could not start a claim beside a result: %s; it follows the result", e.getMessage());
            }
        }

        /** The result is committed: the claim may count and mark. */
        void resultStored() {
            resultStored.complete(true);
        }

        /** The result was refused or not stored: the claim keeps nothing. Nobody reads it: a failure is logged here. */
        void resultRefused() {
            resultStored.complete(false);
            CompletableFuture<JobService.Claim> started = claim;
            if (started != null) {
                started.whenComplete((made, failure) -> {
                    if (failure != null) {
                        LOG.warnf(
                                "A claim beside a refused result of runner %s failed: %s",
                                runner, failure.getMessage());
                    }
                });
            }
        }

        /** The claim's outcome, once it committed; empty when it never started (the caller claims after the result). */
        Optional<JobService.Claim> claimed() {
            CompletableFuture<JobService.Claim> started = claim;
            return started == null ? Optional.empty() : Optional.of(started.join());
        }
    }

    /** A claim for the runner to start beside the result it is reporting. */
    public Beside beside(RunnerCaller runner, URI baseUri) {
        return new Beside(runner, baseUri);
    }

    @PreDestroy
    void stop() {
        executor.shutdown();
    }
}
