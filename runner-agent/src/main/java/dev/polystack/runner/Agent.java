package dev.polystack.runner;

import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;

/**
 * The agent's main loop: one long-polling claimer per job slot; a slot's result asks for its next job, so
 * that while jobs are queued a slot needs one request per job. On shutdown it stops claiming, lets running
 * jobs finish within the grace period, then cancels them; every claimed job is reported.
 */
public final class Agent {

    private static final Logger LOG = Logger.getLogger(Agent.class.getName());

    private final AgentConfig config;
    private final ControlPlane controlPlane;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicBoolean cancelRunning = new AtomicBoolean();
    private final AtomicInteger running = new AtomicInteger();
    private final List<Thread> slots = new ArrayList<>();
    /** The slots waiting in a claim right now; guarded by itself. */
    private final Set<Thread> claiming = new HashSet<>();

    private final Jobs jobs;

    /** Makes the supervisor of a claimed job: where and how it runs. */
    public interface Jobs {
        JobSupervisor start(ClaimedJob job, AtomicBoolean shutdown);
    }

    public Agent(AgentConfig config, ControlPlane controlPlane, Jobs jobs) {
        this.config = config;
        this.controlPlane = controlPlane;
        this.jobs = jobs;
    }

    public void start() {
        for (int i = 0; i < config.maxJobs(); i++) {
            Thread slot = new Thread(this::claimLoop, "slot-" + i);
            slots.add(slot);
            slot.start();
        }
        LOG.info("runner `" + config.runner() + "` of `" + config.org() + "` polls " + config.url() + " with "
                + config.maxJobs() + " slot(s), "
                + (config.kubernetesJobs()
                        ? "running each job as a Kubernetes Job in namespace `" + config.jobNamespace() + "`"
                        : "tofu binary `" + config.tofu() + "`"));
    }

    private void claimLoop() {
        int failures = 0;
        // the job the last result was answered with, claimed for this slot
        Optional<ClaimedJob> next = Optional.empty();
        while (!stopping.get() || next.isPresent()) {
            try {
                Optional<ClaimedJob> job = next.isPresent() ? next : claim();
                next = Optional.empty();
                failures = 0;
                if (job.isEmpty()) {
                    continue;
                }
                if (stopping.get()) {
                    controlPlane.result(job.get().jobId(), JobResult.cancelled("the agent is shutting down"));
                    continue;
                }
                running.incrementAndGet();
                try {
                    next = jobs.start(job.get(), cancelRunning).run(() -> !stopping.get());
                } finally {
                    running.decrementAndGet();
                }
            } catch (ControlPlane.RejectedException e) {
                LOG.severe(e.getMessage());
                sleep(backoff(++failures));
            } catch (ControlPlane.RefusedException e) {
                // the same claim would be refused the same way: said as an error, tried again only after the back-off
                LOG.severe("the control plane refused this runner's claim (" + e.status() + ": " + e.detail() + ")");
                sleep(backoff(++failures));
            } catch (IOException e) {
                if (!stopping.get()) {
                    LOG.warning("claim failed: " + e.getMessage() + "; retrying");
                    sleep(backoff(++failures));
                }
            }
        }
    }

    /**
     * A long-polling claim that a shutdown ends at once: the slot's thread is interrupted while it waits, which
     * cancels the request (the control plane then stops waiting for it, and claims nothing for it). An interrupt
     * never outlives the claim: what the slot does next (reporting a job that came just before the shutdown) is
     * not cut short.
     */
    private Optional<ClaimedJob> claim() throws IOException {
        synchronized (claiming) {
            if (stopping.get()) {
                return Optional.empty();
            }
            claiming.add(Thread.currentThread());
        }
        try {
            return controlPlane.claim(config.claimWait());
        } finally {
            synchronized (claiming) {
                claiming.remove(Thread.currentThread());
                if (stopping.get()) {
                    // the shutdown's interrupt, if it came: it was meant for the wait only
                    Thread.interrupted();
                }
            }
        }
    }

    private static long backoff(int failures) {
        return Math.min(30_000L, 500L * (1L << Math.min(failures, 6)));
    }

    /** Whether a shutdown has begun: no new job starts. */
    boolean stopping() {
        return stopping.get();
    }

    /** Stops claiming, waits for running jobs up to the grace period, then cancels them and waits for their reports. */
    public void shutdown() {
        if (!stopping.compareAndSet(false, true)) {
            return;
        }
        LOG.info("shutting down: no new jobs; " + running.get() + " running job(s) get "
                + config.shutdownGrace().toSeconds() + " s");
        // an idle slot's claim may be held by the control plane for a while yet: it is not waited for
        synchronized (claiming) {
            claiming.forEach(Thread::interrupt);
        }
        long deadline = System.nanoTime() + config.shutdownGrace().toNanos();
        while (running.get() > 0 && System.nanoTime() < deadline) {
            sleep(200);
        }
        if (running.get() > 0) {
            LOG.info("cancelling " + running.get() + " running job(s)");
            cancelRunning.set(true);
        }
        for (Thread slot : slots) {
            try {
                slot.join(config.cancelGrace().toMillis() + TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public void awaitTermination() throws InterruptedException {
        for (Thread slot : slots) {
            slot.join();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
