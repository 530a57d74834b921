package dev.polystack.tests;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static dev.polystack.tests.BenchmarkPart.ADMIN;
import static dev.polystack.tests.Figures.mib;
import static dev.polystack.tests.Figures.mibOf;
import static dev.polystack.tests.Figures.rss;

/**
 * The benchmark harness (not part of the normal test run): real processes — the packaged control plane on
 * its embedded PostgreSQL, runners over the real protocol, a runner agent with the OpenTofu stand-in —
 * and the figures of BENCHMARKS.md, printed as a table and written to tests/target/benchmark.json.
 * <p>
 * {@code ./mvnw -B install -DskipTests && ./mvnw -B verify -pl tests -Pbenchmark} ({@code -Dbench.runners=5000}
 * for the scale run with more idle runners).
 */
class Benchmarks {

    @TempDir
    Path workspace;

    private final BenchReport report = new BenchReport();

    /**
     * How long after its configuration the control plane's RSS counts as idle: its idle collection looks every 20 s
     * from its start and collects at the second look that saw no collection since the first.
     */
    private static final Duration IDLE_SETTLES = Duration.ofSeconds(45);

    /** {@code -Dbench.only=overhead,dry-run} runs only those parts (all by default). */
    private static boolean selected(String part) {
        String only = System.getProperty("bench.only", "");
        return only.isBlank() || Arrays.asList(only.split(",")).contains(part);
    }

    @Test
    void measure() throws Exception {
        report.put(
                "machine",
                Map.of(
                        "cores",
                        Runtime.getRuntime().availableProcessors(),
                        "java",
                        System.getProperty("java.version"),
                        "os",
                        System.getProperty("os.name") + " " + System.getProperty("os.version")));
        Orchestrations orchestrations = new Orchestrations(report, workspace);
        GraphReads reads = new GraphReads(report, workspace);
        RunnerFigures runners = new RunnerFigures(report, workspace);
        ApiFigures api = new ApiFigures(report, workspace);
        try (PlatformProcess platform = new PlatformProcess(
                        workspace.resolve("data"),
                        Map.of(
                                "POLYSTACK_BOOTSTRAP_ADMIN_TOKEN",
                                ADMIN,
                                "POLYSTACK_BOOTSTRAP_PRINT_ADMIN_TOKEN",
                                "false"))
                .start()) {
            Polystack polystack = new Polystack(platform.baseUrl(), ADMIN);
            configure(polystack);
            Thread.sleep(3000);
            long started = rss(platform.pid());
            report.row("memory", "platform-api RSS 3 s after its configuration (start-up)", mib(started), "");
            report.put("platform_started_rss_mib", mibOf(started));
            // idle is what it holds once idle: the start-up transient (pages its initial heap touched before the
            // first collection) is given back by the control plane's idle collection, 20 s by default
            Thread.sleep(IDLE_SETTLES.toMillis() - 3000);
            long idle = rss(platform.pid());
            report.row(
                    "memory",
                    "platform-api RSS idle (" + IDLE_SETTLES.toSeconds() + " s after its configuration)",
                    mib(idle),
                    "");
            report.put("platform_idle_rss_mib", mibOf(idle));
            report.target("platform-api RSS idle", mibOf(idle), "MiB", "<", 300);

            try {
                // the orchestration first: its first run is the cold figure, and the one-runner pickups after it are
                // measured on a control plane whose JIT compiler has settled, as a running one's has (right after
                // start-up the compiler's work on two cores makes the pickups' tail, see BENCHMARKS.md)
                if (selected("overhead")) {
                    orchestrations.overhead(platform, polystack);
                }
                if (selected("pickup")) {
                    runners.pickup(platform, polystack, selected("overhead"));
                }
                if (selected("dry-run")) {
                    api.dryRun(polystack);
                }
                if (selected("reads")) {
                    reads.reads(platform, polystack, selected("overhead"));
                }
                if (selected("logs")) {
                    api.logs(polystack);
                }
                if (selected("creations")) {
                    api.creations(polystack);
                }
                if (selected("scale")) {
                    runners.scale(platform, polystack, Integer.getInteger("bench.runners", 5000));
                }
                if (selected("agent")) {
                    runners.agentMemory(platform, polystack);
                }
                if (selected("overhead-10x")) {
                    orchestrations.overheadTenfold(platform, polystack);
                }
                if (selected("reads-10x")) {
                    reads.readsTenfold(platform, polystack);
                }
                if (selected("memory-after")) {
                    api.memoryAfter(platform);
                }
            } catch (AssertionError | RuntimeException e) {
                String log = platform.log();
                System.out.println("platform-api log (last 12,000 characters):\n"
                        + log.substring(Math.max(0, log.length() - 12_000)));
                throw e;
            } finally {
                // kept for a look afterwards (the workspace is temporary)
                Path kept = PlatformProcess.repository().resolve("tests/target/benchmark-platform.log");
                Files.createDirectories(kept.getParent());
                Files.writeString(kept, platform.log());
            }
        }
        report.print(PlatformProcess.repository().resolve("tests/target/benchmark.json"));
        // -Dbench.enforce=true: a missed target fails the run (for use as a check; not part of verify)
        List<String> missed = report.missed();
        if (Boolean.getBoolean("bench.enforce") && !missed.isEmpty()) {
            throw new AssertionError(missed.size() + " of " + report.targetCount() + " targets missed:\n  "
                    + String.join("\n  ", missed));
        }
    }

    private void configure(Polystack polystack) {
        polystack.configure(ControlPlaneCrashIT.MODULE, ControlPlaneCrashIT.PARAMS);
        // the benchmark measures the engine at scale, not the default quotas: thousands of runners, 10,000-resource
        // manifests
        polystack
                .api()
                .body(Map.of(
                        "runners",
                        100_000,
                        "resources_per_manifest",
                        10_000,
                        "concurrent_jobs",
                        10_000,
                        "queued_deployments_per_environment",
                        10_000,
                        "environments_per_project",
                        10_000))
                .put("/api/v1/orgs/acme/quotas")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(200);
    }
}
