package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.runner.protocol.CheckReport;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.JobStatus;
import dev.polystack.runner.protocol.Operation;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenTofu commands of one job in its workspace: {@code init}, {@code plan -json -out}, {@code show -json}
 * of the plan, {@code apply -json} of the plan (a destroy is a {@code plan -destroy} applied), {@code show -json}
 * of the state and {@code output -json}; a check is a {@code plan -detailed-exitcode} that is never applied. Every line goes to the sink; a cancel stops the running command.
 * The same steps run in the agent's process and in a Kubernetes job pod.
 */
public final class TofuSteps {

    /** Thrown when a tofu command fails or the job is cancelled: the summary, and the detail (the diagnostics). */
    public static final class StepFailed extends Exception {
        private final String detail;

        StepFailed(String summary, String detail) {
            super(summary);
            this.detail = detail;
        }

        StepFailed(String summary) {
            this(summary, null);
        }

        public String detail() {
            return detail;
        }
    }

    private final ClaimedJob job;
    private final Tofu tofu;
    private final LineSink sink;
    private final Tofu.Cancellation cancelled;
    private final Diagnostics diagnostics = new Diagnostics();

    public TofuSteps(
            ClaimedJob job,
            String binary,
            Workspace workspace,
            Map<String, String> environment,
            Duration cancelGrace,
            LineSink sink,
            Tofu.Cancellation cancelled) {
        this.job = job;
        this.tofu = new Tofu(binary, workspace.dir(), environment, cancelGrace);
        this.sink = sink;
        this.cancelled = cancelled;
    }

    public JobResult run() throws IOException, InterruptedException, StepFailed {
        if (job.operation() == null || job.operation() == Operation.UNKNOWN) {
            sink.note("this agent does not know the job's operation: it is older than the control plane");
            return JobResult.failed(
                    "the runner agent does not know this job's operation; upgrade the agent to the control plane's version",
                    null,
                    null);
        }
        if (job.operation() == Operation.CHECK) {
            return check();
        }
        boolean destroy = job.operation() == Operation.DESTROY;
        step(List.of("init", "-input=false", "-no-color"), "init");
        List<String> plan =
                new ArrayList<>(List.of("plan", "-json", "-input=false", "-no-color", "-out=" + Workspace.PLAN_FILE));
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
        if (job.operation() == Operation.PLAN) {
            return new JobResult(JobStatus.SUCCEEDED, null, null, summary, null);
        }
        step(
                List.of("apply", "-json", "-input=false", "-no-color", Workspace.PLAN_FILE),
                destroy ? "destroy" : "apply");
        List<JsonNode> resources =
                TofuJson.resources(TofuJson.read(capture(List.of("show", "-json"), "show the state")));
        Map<String, JobResult.Output> outputs = destroy
                ? Map.of()
                : TofuJson.outputs(capture(List.of("output", "-json"), "read the outputs"), sensitiveOutputs);
        return new JobResult(JobStatus.SUCCEEDED, outputs, resources, summary, null);
    }

    /**
     * A check: {@code plan -detailed-exitcode} of the last applied configuration (exit code 2 means there are
     * changes, not a failure), read with {@code show -json}. Never applies; the state is only read, under its
     * lock for as long as the plan runs.
     */
    private JobResult check() throws IOException, InterruptedException, StepFailed {
        step(List.of("init", "-input=false", "-no-color"), "init");
        List<String> plan = new ArrayList<>(List.of(
                "plan", "-json", "-input=false", "-no-color", "-detailed-exitcode", "-out=" + Workspace.PLAN_FILE));
        if (job.refreshOnly()) {
            plan.add("-refresh-only");
        }
        int exitCode = step(plan, "plan", 0, 2);
        JsonNode planJson =
                TofuJson.read(capture(List.of("show", "-json", Workspace.PLAN_FILE), "show the check's plan"));
        if (planJson.path("errored").asBoolean(false)) {
            throw new StepFailed("the check's plan errored");
        }
        CheckReport report = CheckReports.read(planJson);
        if (exitCode == 2 && !report.drifted() && !report.changesPending()) {
            // tofu saw a difference the plan's JSON does not itemise (a root output): still a difference
            report = new CheckReport(false, true, report.drift(), report.changes(), report.relevantAttributes());
        }
        return new JobResult(JobStatus.SUCCEEDED, null, null, TofuJson.planSummary(planJson), null, report);
    }

    private void step(List<String> args, String name) throws IOException, InterruptedException, StepFailed {
        step(args, name, 0);
    }

    /** Runs a command whose lines are shown; an exit code not in {@code accepted} fails the job. Returns the exit code. */
    private int step(List<String> args, String name, int... accepted)
            throws IOException, InterruptedException, StepFailed {
        checkCancelled();
        Tofu.Outcome outcome = tofu.run(
                args,
                line -> {
                    diagnostics.stdout(line);
                    sink.line(line);
                },
                this::stderr,
                false,
                cancelled);
        if (outcome.cancelled()) {
            throw new StepFailed(name + " was cancelled");
        }
        for (int code : accepted) {
            if (outcome.exitCode() == code) {
                return code;
            }
        }
        throw failure("`" + name + "` failed", outcome.exitCode());
    }

    /** Runs a command whose stdout is read, never shown (it may hold sensitive values); stderr is shown. */
    private String capture(List<String> args, String what) throws IOException, InterruptedException, StepFailed {
        checkCancelled();
        Tofu.Outcome outcome = tofu.run(args, null, this::stderr, true, cancelled);
        if (outcome.cancelled()) {
            throw new StepFailed(what + " was cancelled");
        }
        if (!outcome.succeeded()) {
            throw failure("could not " + what, outcome.exitCode());
        }
        return outcome.stdout();
    }

    private void stderr(String line) {
        sink.stderr(line, diagnostics.stderr(line));
    }

    /**
     * "`init` failed: Unclosed configuration block (module/main.tf line 2)", with the first diagnostic's
     * detail and every further error as the detail; the exit code only when tofu said nothing.
     */
    private StepFailed failure(String what, int exitCode) {
        List<Diagnostics.Diagnostic> errors = diagnostics.errors();
        if (errors.isEmpty()) {
            return new StepFailed(what + " (exit code " + exitCode + ")");
        }
        Diagnostics.Diagnostic first = errors.get(0);
        String where = first.file() == null
                ? ""
                : " (" + first.file() + (first.line() == null ? "" : " line " + first.line()) + ")";
        List<String> detail = new ArrayList<>();
        if (first.detail() != null) {
            detail.add(first.detail());
        }
        errors.subList(1, errors.size()).forEach(e -> detail.add("Error: " + e.describe()));
        return new StepFailed(
                what + ": " + first.summary() + where, detail.isEmpty() ? null : String.join("\n", detail));
    }

    private void checkCancelled() throws StepFailed {
        if (cancelled.isCancelled()) {
            throw new StepFailed("cancelled");
        }
    }
}
