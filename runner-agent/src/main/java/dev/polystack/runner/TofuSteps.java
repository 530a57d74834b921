package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenTofu commands of one job in its workspace: {@code init}, {@code plan -json -out}, {@code show -json}
 * of the plan, {@code apply -json} of the plan (a destroy is a {@code plan -destroy} applied), {@code show -json}
 * of the state and {@code output -json}. Every line goes to the sink; a cancel stops the running command.
 * The same steps run in the agent's process and in a Kubernetes job pod.
 */
public final class TofuSteps {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Thrown when a tofu command fails or the job is cancelled. */
    public static final class StepFailed extends Exception {
        StepFailed(String message) {
            super(message);
        }
    }

    private final ClaimedJob job;
    private final Tofu tofu;
    private final LineSink sink;
    private final Tofu.Cancellation cancelled;
    private final List<String> errors = new ArrayList<>();

    public TofuSteps(ClaimedJob job, String binary, Workspace workspace, Map<String, String> environment, Duration cancelGrace,
                     LineSink sink, Tofu.Cancellation cancelled) {
        this.job = job;
        this.tofu = new Tofu(binary, workspace.dir(), environment, cancelGrace);
        this.sink = sink;
        this.cancelled = cancelled;
    }

    /** The error diagnostics tofu printed, for the failure's detail. */
    public List<String> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }

    public JobResult run() throws IOException, InterruptedException, StepFailed {
        boolean destroy = "destroy".equals(job.operation());
        step(List.of("init", "-input=false", "-no-color"), "init");
        List<String> plan = new ArrayList<>(List.of("plan", "-json", "-input=false", "-no-color", "-out=" + Workspace.PLAN_FILE));
        if (destroy) {
            plan.add("-destroy");
        }
        step(plan, "plan");
        // show -json prints sensitive values in plain text: read it, never log it
        JsonNode planJson = TofuJson.read(capture(List.of("show", "-json", Workspace.PLAN_FILE), "show the plan"));
        JobResult.PlanSummary summary = TofuJson.planSummary(planJson);
        Set<String> sensitiveOutputs = TofuJson.sensitiveModuleOutputs(planJson, "main");
        if (planJson.path("errored").asBoolean(false)) {
            throw new StepFailed("the plan errored");
        }
        if ("plan".equals(job.operation())) {
            return new JobResult("succeeded", null, null, summary, null);
        }
        step(List.of("apply", "-json", "-input=false", "-no-color", Workspace.PLAN_FILE), destroy ? "destroy" : "apply");
        List<JsonNode> resources = TofuJson.resources(TofuJson.read(capture(List.of("show", "-json"), "show the state")));
        Map<String, JobResult.Output> outputs = destroy ? Map.of()
                : TofuJson.outputs(capture(List.of("output", "-json"), "read the outputs"), sensitiveOutputs);
        return new JobResult("succeeded", outputs, resources, summary, null);
    }

    private void step(List<String> args, String name) throws IOException, InterruptedException, StepFailed {
        checkCancelled();
        Tofu.Outcome outcome = tofu.run(args, line -> {
            sink.line(line);
            rememberError(line);
        }, false, cancelled);
        if (outcome.cancelled()) {
            throw new StepFailed(name + " was cancelled");
        }
        if (!outcome.succeeded()) {
            List<String> seen = errors();
            throw new StepFailed("tofu " + name + " failed (exit code " + outcome.exitCode() + ")"
                    + (seen.isEmpty() ? "" : ": " + seen.get(0)));
        }
    }

    private String capture(List<String> args, String what) throws IOException, InterruptedException, StepFailed {
        checkCancelled();
        Tofu.Outcome outcome = tofu.run(args, null, true, cancelled);
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
        if (cancelled.isCancelled()) {
            throw new StepFailed("cancelled");
        }
    }
}
