package dev.polystack.tests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A runner agent ({@code java -jar runner-agent/target/runner-agent.jar}) as a real process. */
final class AgentProcess implements AutoCloseable {

    private final Process process;
    private final Path log;

    private AgentProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    static Path jar() {
        Path jar = PlatformProcess.repository().resolve("runner-agent/target/runner-agent.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: package runner-agent first (./mvnw package)");
        }
        return jar;
    }

    /** Generates a key pair with the agent's own keygen; returns the public key PEM. */
    static String keygen(Path keyFile) throws Exception {
        Process keygen = new ProcessBuilder(java(), "-jar", jar().toString(), "keygen", "--key-file=" + keyFile)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String publicKey = new String(keygen.getInputStream().readAllBytes());
        if (!keygen.waitFor(60, TimeUnit.SECONDS) || keygen.exitValue() != 0) {
            throw new IllegalStateException("keygen failed");
        }
        return publicKey;
    }

    static AgentProcess start(
            String url,
            String org,
            String runner,
            Path keyFile,
            String tofu,
            Path workDir,
            int maxJobs,
            String... extra)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(
                java(),
                "-Xmx256m",
                "-jar",
                jar().toString(),
                "run",
                "--url=" + url,
                "--org=" + org,
                "--runner=" + runner,
                "--key-file=" + keyFile,
                "--tofu=" + tofu,
                "--work-dir=" + workDir.resolve("work"),
                "--plugin-cache-dir=" + workDir.resolve("plugins"),
                "--max-jobs=" + maxJobs,
                "--cancel-grace=10s",
                "--shutdown-grace=5s",
                "--claim-wait=20s"));
        command.addAll(List.of(extra));
        Files.createDirectories(workDir);
        Path log = workDir.resolve("agent.log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        return new AgentProcess(process, log);
    }

    String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** Its child processes (tofu), which outlive it when it is killed. */
    java.util.List<ProcessHandle> descendants() {
        return process.descendants().toList();
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM, as an orchestrator stops it. */
    void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            stop();
        }
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
