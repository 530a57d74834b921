package dev.polystack.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code execute --payload=FILE}: what a Kubernetes job pod runs. It reads the claimed job from the Secret
 * the agent created, runs the same tofu steps as the agent would, prints every line on stdout (known secret
 * values masked) for the agent to stream to the control plane, and ends with one line holding the result,
 * sealed with the job's key. It never talks to the control plane itself: the pod holds no runner key.
 */
public final class PodExecution {

    /** The last line of a job pod's log: this prefix, then the sealed result. */
    public static final String RESULT_PREFIX = "POLYSTACK-RESULT ";

    /** What the agent hands a job pod, in the job's Secret. */
    public record Payload(ClaimedJob job, Map<String, String> tofuEnvironment, String cliConfig, String resultKey) {}

    private PodExecution() {}

    static int execute(List<String> args) throws IOException {
        Path payloadFile = null;
        Path workDir = Path.of("/polystack/work");
        Path pluginCache = Path.of("/polystack/plugins");
        String tofu = "tofu";
        Duration cancelGrace = Duration.ofSeconds(30);
        for (String arg : args) {
            String value = arg.substring(arg.indexOf('=') + 1);
            if (arg.startsWith("--payload=")) {
                payloadFile = Path.of(value);
            } else if (arg.startsWith("--work-dir=")) {
                workDir = Path.of(value);
            } else if (arg.startsWith("--plugin-cache-dir=")) {
                pluginCache = Path.of(value);
            } else if (arg.startsWith("--tofu=")) {
                tofu = value;
            } else if (arg.startsWith("--cancel-grace=")) {
                cancelGrace = AgentConfig.duration(value, "cancel-grace");
            } else {
                throw new AgentConfig.ConfigException(
                        "execute takes --payload, --work-dir, --plugin-cache-dir, --tofu and " + "--cancel-grace, not `"
                                + arg + "`");
            }
        }
        if (payloadFile == null) {
            throw new AgentConfig.ConfigException(
                    "execute needs --payload=FILE (the job's Secret, mounted by the agent's Job)");
        }
        Payload payload = ControlPlane.JSON.readValue(payloadFile.toFile(), Payload.class);
        ClaimedJob job = payload.job();
        MaskingSink sink = new MaskingSink(System.out, secretsOf(payload));

        AtomicBoolean cancelled = new AtomicBoolean();
        Thread main = Thread.currentThread();
        Duration grace = cancelGrace;
        // the pod is deleted on cancel: SIGTERM stops tofu gracefully, and the result is still printed
        Thread hook = new Thread(
                () -> {
                    cancelled.set(true);
                    try {
                        main.join(grace.toMillis() + 5_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                "sigterm");
        Runtime.getRuntime().addShutdownHook(hook);

        JobResult result;
        Workspace workspace = null;
        try {
            workspace = Workspace.create(workDir, job);
            Path cliConfig = null;
            if (payload.cliConfig() != null && !payload.cliConfig().isBlank()) {
                cliConfig = workDir.resolve(job.jobId() + ".tfrc");
                Files.writeString(cliConfig, payload.cliConfig());
            }
            Map<String, String> environment = workspace.environment(
                    job,
                    payload.tofuEnvironment() == null ? Map.of() : payload.tofuEnvironment(),
                    pluginCache,
                    cliConfig);
            TofuSteps steps = new TofuSteps(job, tofu, workspace, environment, cancelGrace, sink, cancelled::get);
            result = steps.run();
        } catch (TofuSteps.StepFailed e) {
            result = cancelled.get()
                    ? JobResult.cancelled("the job pod was stopped")
                    : JobResult.failed(e.getMessage(), e.detail(), null);
        } catch (IOException e) {
            sink.note("the job pod could not run the job: " + e.getMessage());
            result = JobResult.failed("the job pod could not run the job", e.getMessage(), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result = JobResult.cancelled("the job pod was interrupted");
        } finally {
            if (workspace != null) {
                workspace.delete();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook waits for this thread
        }
        sink.note("job " + result.status());
        synchronized (System.out) {
            System.out.println(RESULT_PREFIX
                    + SealedResult.seal(ControlPlane.JSON.writeValueAsBytes(result), payload.resultKey()));
            System.out.flush();
        }
        return 0;
    }

    /** Values that must not reach the pod's log: state credentials, sensitive inputs, the runner's tofu variables. */
    static List<String> secretsOf(Payload payload) {
        List<String> secrets = new ArrayList<>();
        ClaimedJob job = payload.job();
        if (job.state() != null && job.state().password() != null) {
            secrets.add(job.state().password());
        }
        if (job.inputs() != null && job.sensitiveInputs() != null) {
            for (String name : job.sensitiveInputs()) {
                collect(job.inputs().get(name), secrets);
            }
        }
        if (payload.tofuEnvironment() != null) {
            secrets.addAll(payload.tofuEnvironment().values());
        }
        // short values would mask ordinary words; longest first so that no secret is left half-masked
        return secrets.stream()
                .filter(s -> s != null && s.length() >= 6)
                .distinct()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .toList();
    }

    private static void collect(JsonNode node, List<String> into) {
        if (node == null) {
            return;
        }
        if (node.isValueNode()) {
            into.add(node.asText());
        } else {
            node.forEach(child -> collect(child, into));
        }
    }

    /** Prints lines with every known secret replaced by ***. */
    static final class MaskingSink implements LineSink {
        private final PrintStream out;
        private final List<String> secrets;

        MaskingSink(PrintStream out, List<String> secrets) {
            this.out = out;
            this.secrets = secrets;
        }

        String mask(String line) {
            String masked = line;
            for (String secret : secrets) {
                masked = masked.replace(secret, "***");
            }
            return masked;
        }

        @Override
        public void line(String raw) {
            synchronized (out) {
                out.println(mask(raw));
            }
        }

        @Override
        public void note(String message) {
            line(message);
        }
    }
}
