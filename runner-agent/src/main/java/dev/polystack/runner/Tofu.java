package dev.polystack.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the OpenTofu CLI (or Terraform) as a child process in a workspace, hands every output line to a
 * sink as it comes, and stops it on cancellation: SIGINT first (tofu then stops gracefully and saves
 * state), SIGKILL of the whole process tree after the grace period.
 */
public final class Tofu {

    private final String binary;
    private final Path dir;
    private final Map<String, String> environment;
    private final Duration cancelGrace;

    public Tofu(String binary, Path dir, Map<String, String> environment, Duration cancelGrace) {
        this.binary = binary;
        this.dir = dir;
        this.environment = Map.copyOf(environment);
        this.cancelGrace = cancelGrace;
    }

    /** How a command ended, and what it printed on stdout (only kept when asked for). */
    public record Outcome(int exitCode, String stdout, boolean cancelled) {
        public boolean succeeded() {
            return exitCode == 0 && !cancelled;
        }
    }

    /**
     * Runs {@code binary args...}.
     *
     * @param stdoutLines receives every stdout line (null: not shown, e.g. for output with secrets)
     * @param stderrLines receives every stderr line (warnings, and errors of commands without {@code -json})
     * @param capture     whether to keep stdout for the caller
     */
    public Outcome run(
            List<String> args,
            Consumer<String> stdoutLines,
            Consumer<String> stderrLines,
            boolean capture,
            Cancellation cancellation)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(binary);
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile());
        builder.environment().putAll(environment);
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new IOException(
                    "cannot run `" + binary + "`: " + e.getMessage()
                            + "; install OpenTofu >= 1.6 or set the tofu binary (--tofu=/path/to/tofu)",
                    e);
        }
        StringBuilder stdout = new StringBuilder();
        // stdout and stderr are read by two threads; the consumers see one line at a time
        Object turn = new Object();
        Consumer<String> outSink = oneAtATime(stdoutLines, turn);
        Consumer<String> errSink = oneAtATime(stderrLines, turn);
        Thread out = pump(process.getInputStream(), line -> {
            if (capture) {
                stdout.append(line).append('\n');
            }
            outSink.accept(line);
        });
        Thread err = pump(process.getErrorStream(), errSink);
        boolean cancelled = false;
        while (!process.waitFor(200, TimeUnit.MILLISECONDS)) {
            if (cancellation.isCancelled()) {
                cancelled = true;
                stop(process);
                break;
            }
        }
        process.waitFor();
        out.join(5000);
        err.join(5000);
        return new Outcome(process.exitValue(), stdout.toString(), cancelled);
    }

    private static Consumer<String> oneAtATime(Consumer<String> lines, Object turn) {
        return lines == null
                ? line -> {}
                : line -> {
                    synchronized (turn) {
                        lines.accept(line);
                    }
                };
    }

    private void stop(Process process) throws InterruptedException {
        interrupt(process.pid());
        if (!process.waitFor(cancelGrace.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    private static void interrupt(long pid) {
        try {
            new ProcessBuilder("kill", "-INT", Long.toString(pid)).start().waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            ControlPlane.log().warning("could not send SIGINT to " + pid + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Thread pump(InputStream stream, Consumer<String> sink) {
        Thread thread = new Thread(
                () -> {
                    try (BufferedReader reader =
                            new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                        String line;
                        while ((line = reader.readLine()) != null) {
                            sink.accept(line);
                        }
                    } catch (IOException e) {
                        // the process ended
                    }
                },
                "tofu-output");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Whether the job was cancelled (by the control plane or a shutdown). */
    public interface Cancellation {
        boolean isCancelled();
    }
}
