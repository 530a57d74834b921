package dev.polystack.tests;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The packaged control plane ({@code java -jar platform-api/target/quarkus-app/quarkus-run.jar}) as a
 * real process on a free port, with its own data directory and log file.
 */
final class PlatformProcess implements AutoCloseable {

    private final Path dataDir;
    private final Map<String, String> environment;
    private final int port;
    private final Path log;
    private Process process;

    PlatformProcess(Path dataDir, Map<String, String> environment) throws IOException {
        this.dataDir = dataDir;
        this.environment = Map.copyOf(environment);
        this.port = Ports.free();
        this.log = dataDir.resolveSibling(dataDir.getFileName() + "-platform.log");
    }

    static Path repository() {
        return Path.of(System.getProperty("polystack.repository", ".."))
                .toAbsolutePath()
                .normalize();
    }

    /** The options between {@code java} and {@code -jar} in the README's run command (its {@code run} block). */
    static java.util.List<String> readmeJvmOptions() throws java.io.IOException {
        return jvmOptions(Readme.block("run"));
    }

    /** The options between {@code java} and {@code -jar} in a shell command. */
    static java.util.List<String> jvmOptions(String command) {
        java.util.regex.Matcher run = java.util.regex.Pattern.compile("\\bjava((?:\\s+-(?!jar\\b)\\S+)*)\\s+-jar\\s")
                .matcher(command);
        if (!run.find()) {
            throw new AssertionError("no `java … -jar` command in: " + command);
        }
        String options = run.group(1).trim();
        return options.isEmpty() ? java.util.List.of() : java.util.List.of(options.split("\\s+"));
    }

    PlatformProcess start() throws Exception {
        Path jar = repository().resolve("platform-api/target/quarkus-app/quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: package platform-api first (./mvnw package)");
        }
        // -Dplatform.java.home=/usr/lib/jvm/... runs the control plane on another JDK than the tests
        String javaHome = System.getProperty("platform.java.home", System.getProperty("java.home"));
        java.util.List<String> command = new java.util.ArrayList<>(
                java.util.List.of(Path.of(javaHome, "bin", "java").toString()));
        // the JVM options of the README's run command, so that tests and benchmarks run what a reader runs
        command.addAll(readmeJvmOptions());
        // extra JVM options for the control plane, e.g. -Dplatform.jvm=-XX:StartFlightRecording=filename=/tmp/p.jfr to
        // profile it
        String extra = System.getProperty("platform.jvm", "");
        if (!extra.isBlank()) {
            command.addAll(java.util.List.of(extra.trim().split("\\s+")));
        }
        command.addAll(java.util.List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = new HashMap<>(environment);
        env.put("POLYSTACK_DATA_DIR", dataDir.toString());
        env.put("POLYSTACK_HTTP_PORT", Integer.toString(port));
        env.put("POLYSTACK_HTTP_HOST", "127.0.0.1");
        builder.environment().putAll(env);
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        process = builder.start();
        awaitReady(Duration.ofSeconds(90));
        return this;
    }

    long pid() {
        return process.pid();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** kill -9: no shutdown hook runs, its embedded PostgreSQL (if any) is left running. */
    void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    /** Stops it as an operator would (SIGTERM) and waits. */
    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    @Override
    public void close() throws Exception {
        stop();
    }

    private void awaitReady(Duration timeout) throws Exception {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("platform-api exited with " + process.exitValue() + ":\n" + log());
            }
            try {
                HttpURLConnection connection = (HttpURLConnection)
                        URI.create(baseUrl() + "/q/health/ready").toURL().openConnection();
                connection.setConnectTimeout(500);
                connection.setReadTimeout(2000);
                if (connection.getResponseCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("platform-api was not ready within " + timeout + ":\n" + log());
    }
}
