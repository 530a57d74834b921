package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.HeartbeatReply;
import dev.polystack.runner.protocol.JobResult;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Runs one claimed job: workspace, {@code init}, {@code plan -json -out}, {@code show -json} of the
 * plan, {@code apply -json} of the plan (a destroy is a {@code plan -destroy} applied), {@code show -json}
 * of the state and {@code output -json}; streams every line, keeps the lease with heartbeats, and
 * always reports how it ended — unless the lease was lost, when the control plane would refuse it.
 */
public final class JobRun {

    private static final Logger LOG = Logger.getLogger(JobRun.class.getName());
    private static final ObjectMapper JSON = new ObjectMapper();

    private final AgentConfig config;
    private final ControlPlane controlPlane;
    private final ClaimedJob job;
    private final AtomicBoolean shutdown;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean leaseLost = new AtomicBoolean();
    private final List<String> errors = new ArrayList<>();

    public JobRun(AgentConfig config, ControlPlane controlPlane, ClaimedJob job, AtomicBoolean shutdown) {
        this.config = config;
        this.controlPlane = controlPlane;
        this.job = job;
        this.shutdown = shutdown;
    }

    /** Thrown when a tofu command fails. */
    private static final class StepFailed extends Exception {
        StepFailed(String message) {
            super(message);
        }
    }

    public void run() {
        LOG.info("job " + job.jobId() + ": " + job.operation() + " " + job.resource() + " (attempt " + job.attempt() + ")");
        Thread heartbeats = new Thread(this::heartbeat, "heartbeat-" + job.jobId());
        heartbeats.setDaemon(true);
        heartbeats.start();
        JobResult result;
        Workspace workspace = null;
        try (LogShipper logs = new LogShipper(controlPlane, job.jobId())) {
            try {
                workspace = Workspace.create(config.workDir(), job);
                result = execute(workspace, logs);
            } catch (StepFailed e) {
                result = isCancelled() ? JobResult.cancelled(cancelReason())
                        : JobResult.failed(e.getMessage(), String.join("\n", errors), null);
            } catch (IOException e) {
                logs.note("the agent could not run the job: " + e.getMessage());
                result = JobResult.failed("the agent could not run the job", e.getMessage(), null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result = JobResult.cancelled("the agent was interrupted");
            }
            logs.note("job " + result.status());
        } finally {
            heartbeats.interrupt();
            if (workspace != null && !config.keepWorkDirs()) {
                workspace.delete();
            }
        }
        report(result);
    }

    private JobResult execute(Workspace workspace, LogShipper logs) throws IOException, InterruptedException, StepFailed {
        Tofu tofu = new Tofu(config.tofu(), workspace.dir(), workspace.environment(job, config), config.cancelGrace());
        boolean destroy = "destroy".equals(job.operation());
        step(tofu, logs, List.of("init", "-input=false", "-no-color"), "init");
        List<String> plan = new ArrayList<>(List.of("plan", "-json", "-input=false", "-no-color", "-out=" + Workspace.PLAN_FILE));
        if (destroy) {
            plan.add("-destroy");
        }
        step(tofu, logs, plan, "plan");
        // show -json prints sensitive values in plain text: read it, never log it
        JsonNode planJson = TofuJson.read(capture(tofu, List.of("show", "-json", Workspace.PLAN_FILE), "show the plan"));
        JobResult.PlanSummary summary = TofuJson.planSummary(planJson);
        Set<String> sensitiveOutputs = TofuJson.sensitiveModuleOutputs(planJson, "main");
        if (planJson.path("errored").asBoolean(false)) {
            throw new StepFailed("the plan errored");
        }
        if ("plan".equals(job.operation())) {
            return new JobResult("succeeded", null, null, summary, null);
        }
        step(tofu, logs, List.of("apply", "-json", "-input=false", "-no-color", Workspace.PLAN_FILE), destroy ? "destroy" : "apply");
        List<JsonNode> resources = TofuJson.resources(TofuJson.read(capture(tofu, List.of("show", "-json"), "show the state")));
        Map<String, JobResult.Output> outputs = destroy ? Map.of()
                : TofuJson.outputs(capture(tofu, List.of("output", "-json"), "read the outputs"), sensitiveOutputs);
        return new JobResult("succeeded", outputs, resources, summary, null);
    }

    private void step(Tofu tofu, LogShipper logs, List<String> args, String name) throws IOException, InterruptedException, StepFailed {
        checkCancelled();
        Tofu.Outcome outcome = tofu.run(args, line -> {
            logs.line(line);
            rememberError(line);
        }, false, this::isCancelled);
        if (outcome.cancelled()) {
            throw new StepFailed(name + " was cancelled");
        }
        if (!outcome.succeeded()) {
            throw new StepFailed("tofu " + name + " failed (exit code " + outcome.exitCode() + ")"
                    + (errors.isEmpty() ? "" : ": " + errors.get(0)));
        }
    }

    private String capture(Tofu tofu, List<String> args, String what) throws IOException, InterruptedException, StepFailed {
        checkCancelled();
        Tofu.Outcome outcome = tofu.run(args, null, true, this::isCancelled);
        if (!outcome.succeeded()) {
            throw new StepFailed("could not " + what + " (exit code " + outcome.exitCode() + ")");
        }
        return outcome.stdout();
    }

    private void rememberError(String line) {
        if (!line.startsWith("{") || !line.contains("\"diagnostic\"")) {
            return;
        }
        try {
            JsonNode message = JSON.readTree(line);
            if ("diagnostic".equals(message.path("type").asText()) && "error".equals(message.path("@level").asText())) {
                synchronized (errors) {
                    errors.add(UiStream.describe(message.path("diagnostic"), message.path("@message").asText()));
                }
            }
        } catch (IOException e) {
            // not a diagnostic
        }
    }

    private void checkCancelled() throws StepFailed {
        if (isCancelled()) {
            throw new StepFailed("cancelled");
        }
    }

    private boolean isCancelled() {
        return cancelled.get() || shutdown.get() || leaseLost.get();
    }

    private String cancelReason() {
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
                    LOG.info("job " + job.jobId() + " was cancelled; stopping tofu");
                }
            } catch (InterruptedException e) {
                return;
            } catch (ControlPlane.LeaseLostException e) {
                LOG.warning(e.getMessage() + "; stopping");
                leaseLost.set(true);
                return;
            } catch (IOException e) {
                LOG.warning("heartbeat of job " + job.jobId() + " failed: " + e.getMessage() + "; retrying");
            }
        }
    }

    /** Sends the result, retrying for up to about two minutes; a refused one (lease lost) is dropped. */
    private void report(JobResult result) {
        if (leaseLost.get()) {
            LOG.warning("job " + job.jobId() + " lost its lease; not reporting " + result.status());
            return;
        }
        for (int attempt = 1; attempt <= 12; attempt++) {
            try {
                controlPlane.result(job.jobId(), result);
                LOG.info("job " + job.jobId() + " " + result.status());
                return;
            } catch (ControlPlane.LeaseLostException e) {
                LOG.warning(e.getMessage());
                return;
            } catch (IOException e) {
                LOG.warning("reporting job " + job.jobId() + " failed (" + e.getMessage() + "); retrying");
                try {
                    Thread.sleep(Math.min(attempt * 2000L, 15_000L));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
        LOG.severe("gave up reporting job " + job.jobId() + "; its lease will expire and the control plane will fail it");
    }
}
