package dev.polystack.runner;

import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.HeartbeatReply;
import dev.polystack.runner.protocol.JobResult;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * Looks after one claimed job wherever it runs: keeps the lease with heartbeats, learns of a cancel or a
 * lost lease, and always reports how the job ended — unless the lease was lost, when the control plane
 * would refuse the report. Subclasses run the job: in the agent's process, or as a Kubernetes Job.
 */
public abstract class JobSupervisor {

    private static final Logger LOG = Logger.getLogger(JobSupervisor.class.getName());

    protected final AgentConfig config;
    protected final ControlPlane controlPlane;
    protected final ClaimedJob job;
    private final AtomicBoolean shutdown;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean leaseLost = new AtomicBoolean();

    protected JobSupervisor(AgentConfig config, ControlPlane controlPlane, ClaimedJob job, AtomicBoolean shutdown) {
        this.config = config;
        this.controlPlane = controlPlane;
        this.job = job;
        this.shutdown = shutdown;
    }

    /** Runs the job to its end and reports it. */
    public final void run() {
        run(() -> false);
    }

    /**
     * Runs the job to its end and reports it. When {@code takeNext} says so at the time of the report (the
     * agent is not shutting down), the report asks for the runner's next queued job, for this slot to run
     * next: returned when the control plane had one.
     */
    public final Optional<ClaimedJob> run(BooleanSupplier takeNext) {
        LOG.info("job " + job.jobId() + ": " + job.operation() + " " + job.resource() + " (attempt " + job.attempt()
                + ")");
        Thread heartbeats = new Thread(this::heartbeat, "heartbeat-" + job.jobId());
        heartbeats.setDaemon(true);
        heartbeats.start();
        JobResult result;
        try {
            result = execute();
        } finally {
            heartbeats.interrupt();
        }
        return report(result, takeNext);
    }

    /** Runs the job; returns how it ended (a cancel included). */
    protected abstract JobResult execute();

    protected boolean isCancelled() {
        return cancelled.get() || shutdown.get() || leaseLost.get();
    }

    protected String cancelReason() {
        return leaseLost.get() ? "the lease was lost" : shutdown.get() ? "the agent shut down" : "cancelled";
    }

    /** Tells the control plane the job is alive; learns of a cancel or a lost lease. */
    private void heartbeat() {
        long interval = Math.max(1, job.heartbeatSeconds()) * 1000L;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(interval);
                HeartbeatReply reply = controlPlane.heartbeat(job.jobId());
                if (reply.cancelled() && cancelled.compareAndSet(false, true)) {
                    LOG.info("job " + job.jobId() + " was cancelled; stopping it");
                }
            } catch (InterruptedException e) {
                return;
            } catch (ControlPlane.LeaseLostException e) {
                LOG.warning(e.getMessage() + "; stopping");
                leaseLost.set(true);
                return;
            } catch (ControlPlane.RefusedException e) {
                // asked again, it would answer the same: the lease runs out, and the control plane fails the job
                LOG.severe("the control plane refused the heartbeat of job " + job.jobId() + " (" + e.status() + ": "
                        + e.detail() + "); no more heartbeats for it");
                return;
            } catch (IOException e) {
                LOG.warning("heartbeat of job " + job.jobId() + " failed: " + e.getMessage() + "; retrying");
            }
        }
    }

    /**
     * Sends the result, retrying for up to about two minutes; a refused one (lease lost) is dropped. Only the
     * first attempt asks for the next job: when its answer is lost, a job it may have claimed is not claimed
     * again by the retry, and waits for its lease to run out. A result the control plane refuses for what it
     * holds (a 4xx: it would be refused again) is replaced, once, by a failure that says so, so that the
     * job fails with the reason instead of waiting for its lease to run out.
     */
    private Optional<ClaimedJob> report(JobResult result, BooleanSupplier takeNext) {
        if (leaseLost.get()) {
            LOG.warning("job " + job.jobId() + " lost its lease; not reporting " + result.status());
            return Optional.empty();
        }
        JobResult sending = result;
        boolean askNext = true;
        for (int attempt = 1; attempt <= 12; attempt++) {
            try {
                Optional<ClaimedJob> next =
                        controlPlane.resultAndNext(job.jobId(), sending, askNext && takeNext.getAsBoolean());
                LOG.info("job " + job.jobId() + " " + sending.status());
                return next;
            } catch (ControlPlane.LeaseLostException e) {
                LOG.warning(e.getMessage());
                return Optional.empty();
            } catch (ControlPlane.RefusedException e) {
                if (sending != result) {
                    LOG.severe("the control plane refused the failure report of job " + job.jobId() + " too ("
                            + e.status() + ": " + e.detail()
                            + "); giving up: its lease will expire and the control plane will fail it");
                    return Optional.empty();
                }
                LOG.severe("the control plane refused the result of job " + job.jobId() + " (" + e.status() + ": "
                        + e.detail() + "); not sending it again, reporting the job as failed with that reason instead");
                // a refused request claimed nothing: the failure report may still ask for the next job
                sending = JobResult.failed(
                        "the control plane refused this job's result (" + e.status() + "): " + e.detail(),
                        "the job " + result.status() + " on the runner; see its log",
                        result.planSummary());
            } catch (IOException e) {
                askNext = false;
                LOG.warning("reporting job " + job.jobId() + " failed (" + e.getMessage() + "); retrying");
                try {
                    Thread.sleep(Math.min(attempt * 2000L, 15_000L));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            }
        }
        LOG.severe(
                "gave up reporting job " + job.jobId() + "; its lease will expire and the control plane will fail it");
        return Optional.empty();
    }
}
