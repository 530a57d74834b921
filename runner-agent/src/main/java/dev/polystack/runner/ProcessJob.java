package dev.polystack.runner;

import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/** A job run by the agent itself: a workspace in its work directory and tofu as its child process. */
public final class ProcessJob extends JobSupervisor {

    public ProcessJob(AgentConfig config, ControlPlane controlPlane, ClaimedJob job, AtomicBoolean shutdown) {
        super(config, controlPlane, job, shutdown);
    }

    @Override
    protected JobResult execute() {
        JobResult result;
        Workspace workspace = null;
        try (LogShipper logs = new LogShipper(controlPlane, job.jobId())) {
            try {
                workspace = Workspace.create(config.workDir(), job);
                TofuSteps steps = new TofuSteps(
                        job,
                        config.tofu(),
                        workspace,
                        workspace.environment(job, config),
                        config.cancelGrace(),
                        logs,
                        this::isCancelled);
                result = steps.run();
            } catch (TofuSteps.StepFailed e) {
                result = isCancelled()
                        ? JobResult.cancelled(cancelReason())
                        : JobResult.failed(e.getMessage(), e.detail(), null);
            } catch (IOException e) {
                logs.note("the agent could not run the job: " + e.getMessage());
                result = JobResult.failed("the agent could not run the job", e.getMessage(), null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                result = JobResult.cancelled("the agent was interrupted");
            }
            logs.note("job " + result.status());
        } finally {
            if (workspace != null && !config.keepWorkDirs()) {
                workspace.delete();
            }
        }
        return result;
    }
}
