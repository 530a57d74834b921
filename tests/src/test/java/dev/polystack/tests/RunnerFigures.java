package dev.polystack.tests;

import dev.polystack.tests.standin.StandInTofu;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static dev.polystack.tests.Figures.cpuByThread;
import static dev.polystack.tests.Figures.cpuOf;
import static dev.polystack.tests.Figures.cpuSeconds;
import static dev.polystack.tests.Figures.mib;
import static dev.polystack.tests.Figures.mibOf;
import static dev.polystack.tests.Figures.ms;
import static dev.polystack.tests.Figures.percentiles;
import static dev.polystack.tests.Figures.rss;
import static dev.polystack.tests.Figures.sleep;
import static dev.polystack.tests.Figures.threadCpu;
import static dev.polystack.tests.Figures.threads;

/** What runners meet: pickup latency, many idle long-polling runners, a real agent's memory. */
final class RunnerFigures extends BenchmarkPart {

    RunnerFigures(BenchReport report, Path workspace) {
        super(report, workspace);
    }

    /**
     * 200 single-node deployments one after another: from the job being queued to its claim returning. {@code
     * afterOrchestration}: the orchestration runs came first (a warm control plane); otherwise only 50 warm-up
     * pickups did.
     */
    void pickup(PlatformProcess platform, Polystack polystack, boolean afterOrchestration) throws Exception {
        List<Double> latencies = pickupLatencies(polystack, "pickup", "idle-runner", 200);
        Map<String, Double> p = percentiles(latencies);
        report.put("pickup_latency_ms", p);
        report.put("pickup_after", afterOrchestration ? "orchestration" : "start-up");
        row(
                "pickup",
                "queued → claim returned, 200 deployments, 1 idle long-polling runner",
                ms(p.get("p50")) + " p50",
                afterOrchestration
                        ? "after the orchestration runs (a warm control plane)"
                        : "right after start-up (50 warm-up pickups only)");
        row("", "", ms(p.get("p95")) + " p95", "");
        row("", "", ms(p.get("p99")) + " p99", "target p99 < 50 ms: " + (p.get("p99") < 50 ? "met" : "NOT met"));
        part(
                "pickup_queued_to_create_answer_ms",
                "queued → the create call's answer reached the harness",
                lastQueuedToAnswer);
        part("pickup_queued_to_started_ms", QUEUED_TO_STARTED, lastQueuedToStarted);
        figure(
                "pickup_create_sent_to_claimed_ms",
                "the whole way: the create call sent → claim returned",
                lastSentToClaimed);
        target("pickup p99, job queued → claim returned, 1 idle runner", p.get("p99"), "ms", "<", 50);
    }

    private static final String QUEUED_TO_STARTED = "queued → the claim's transaction took the node (its started_at)";

    /** A part of the pickups just measured: its percentiles in the report, and a row. */
    private void part(String key, String what, List<Double> values) {
        figure(key, "… of it, " + what, values);
    }

    /** A figure of the pickups just measured: its percentiles in the report, and a row. */
    private void figure(String key, String label, List<Double> values) {
        Map<String, Double> p = percentiles(values);
        report.put(key, p);
        row("", label, ms(p.get("p50")) + " p50", "p95 " + ms(p.get("p95")) + ", p99 " + ms(p.get("p99")));
    }

    /**
     * Many idle long-polling runners against one control plane: its memory, threads, the idle looks' CPU, and a probe's
     * pickup latency, in the runners' first minute (shown) and after it ({@code -Dbench.settle} seconds from their
     * first poll, 60 by default; the target). The idle runners are another process ({@link IdleRunners}), the probe
     * runs here.
     */
    void scale(PlatformProcess platform, Polystack polystack, int count) throws Exception {
        Map<String, PrivateKey> keys = new LinkedHashMap<>();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        long registering = System.nanoTime();
        for (int i = 0; i < count; i++) {
            KeyPair pair = generator.generateKeyPair();
            keys.put("idle-" + i, pair.getPrivate());
            polystack
                    .api()
                    .body(Map.of("id", "idle-" + i, "public_key", pem(pair.getPublic())))
                    .post("/api/v1/orgs/acme/runners")
                    .then()
                    .log()
                    .ifValidationFails()
                    .statusCode(201);
        }
        System.out.printf("registered %d runners in %.1f s%n", count, (System.nanoTime() - registering) / 1e9);
        Path keyFile = workspace.resolve("idle-runners.keys");
        IdleRunners.writeKeys(keyFile, keys);
        long threadsBefore = threads(platform.pid());
        Process idle = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Dbench.idleClient=" + System.getProperty("bench.idleClient", "vertx"),
                        "-cp",
                        System.getProperty("java.class.path"),
                        IdleRunners.class.getName(),
                        platform.baseUrl(),
                        keyFile.toString())
                .redirectErrorStream(true)
                .start();
        try {
            // its last report: answered claims, errors and why
            AtomicReference<String> last = new AtomicReference<>("");
            CountDownLatch polling = new CountDownLatch(1);
            Thread reader = new Thread(() -> {
                try (BufferedReader out =
                        new BufferedReader(new InputStreamReader(idle.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line = out.readLine(); line != null; line = out.readLine()) {
                        if (line.equals("polling")) {
                            polling.countDown();
                        } else if (line.startsWith("answered ")) {
                            last.set(line);
                        } else {
                            System.out.println("idle runners: " + line);
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            });
            reader.setDaemon(true);
            reader.start();
            if (!polling.await(120, TimeUnit.SECONDS)) {
                throw new AssertionError("the idle runners did not start polling within 2 minutes");
            }
            long pollingSince = System.nanoTime();
            // the first minute: 5,000 runners just came (as after a restart of the control plane) and it still
            // compiles the paths of their looks; the figure is shown, the target is the steady state's below
            Thread.sleep(5_000);
            Map<String, Double> firstThreads = threadCpu(platform.pid());
            long firstStart = System.nanoTime();
            Map<String, Double> first = percentiles(pickupLatencies(polystack, "probe-first", "probe-first", 200));
            String firstCpu = String.format(
                    "%.1f s: %s",
                    (System.nanoTime() - firstStart) / 1e9, cpuByThread(firstThreads, threadCpu(platform.pid())));
            // the steady state: the looks of a minute or more, their paths compiled
            long settled = pollingSince + TimeUnit.SECONDS.toNanos(Long.getLong("bench.settle", 60));
            Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(settled - System.nanoTime())));
            // what the idle looks cost: the control plane's and PostgreSQL's CPU over 10 s of nothing but waiting
            // claims
            double[] cpuBefore = cpuSeconds(platform.pid());
            Map<String, Double> threadsCpuBefore = threadCpu(platform.pid());
            double idleRunnersCpuBefore = cpuOf(idle.pid());
            long answeredBefore = answeredOf(last.get());
            long idleStart = System.nanoTime();
            Thread.sleep(10_000);
            double idleSeconds = (System.nanoTime() - idleStart) / 1e9;
            long looks = answeredOf(last.get()) - answeredBefore;
            double[] cpuAfter = cpuSeconds(platform.pid());
            double idleRunnersCores = (cpuOf(idle.pid()) - idleRunnersCpuBefore) / idleSeconds;
            String idleThreads = cpuByThread(threadsCpuBefore, threadCpu(platform.pid()));
            long rss = rss(platform.pid());
            long threads = threads(platform.pid());
            List<Double> probe = pickupLatencies(polystack, "probe", "probe", 200);
            Map<String, Double> p = percentiles(probe);
            long rssAfter = rss(platform.pid());
            String errors = last.get().replaceFirst("^answered \\d+ ", "");
            report.put(
                    "scale",
                    Map.of(
                            "idle_runners",
                            count,
                            "platform_rss_mib",
                            mibOf(Math.max(rss, rssAfter)),
                            "platform_threads",
                            threads,
                            "platform_threads_before",
                            threadsBefore,
                            "probe_pickup_ms",
                            p,
                            "probe_pickup_ms_first_minute",
                            first,
                            "poll_errors",
                            errors));
            double platformPerLook = looks == 0 ? 0 : (cpuAfter[0] - cpuBefore[0]) * 1000 / looks;
            double postgresPerLook = looks == 0 ? 0 : (cpuAfter[1] - cpuBefore[1]) * 1000 / looks;
            report.put(
                    "scale_idle_looks",
                    Map.of(
                            "looks_per_second",
                            looks / idleSeconds,
                            "platform_cpu_ms_per_look",
                            platformPerLook,
                            "postgres_cpu_ms_per_look",
                            postgresPerLook,
                            "idle_runners_process_cores",
                            idleRunnersCores));
            row("scale", count + " idle long-polling runners: platform-api RSS", mib(Math.max(rss, rssAfter)), "");
            row("", "… platform-api threads (before the runners: " + threadsBefore + ")", Long.toString(threads), "");
            row(
                    "",
                    String.format(
                            "… idle looks answered (10 s, nothing queued): %.0f /s; CPU per look: platform-api,"
                                    + " PostgreSQL",
                            looks / idleSeconds),
                    String.format("%.2f ms", platformPerLook),
                    String.format(
                            "%.2f ms; platform-api threads: %s; the idle runners' own process: %.2f cores",
                            postgresPerLook, idleThreads, idleRunnersCores));
            row(
                    "",
                    "… pickup of a probe runner's jobs in their first minute (200 deployments, queued → claim"
                            + " returned)",
                    ms(first.get("p99")) + " p99",
                    "p50 " + ms(first.get("p50")) + "; platform-api threads in the " + firstCpu);
            row(
                    "",
                    "… pickup of a probe runner's jobs after a minute or more (200 deployments, queued → claim"
                            + " returned)",
                    ms(p.get("p99")) + " p99",
                    "p50 " + ms(p.get("p50")) + "; idle runners' polls: " + errors);
            part("scale_probe_queued_to_started_ms", QUEUED_TO_STARTED, lastQueuedToStarted);
            target(
                    "pickup p99 of a probe runner among " + count
                            + " idle runners (the aim: 5,000), after their first minute",
                    p.get("p99"),
                    "ms",
                    "<",
                    50);
        } finally {
            idle.getOutputStream().close();
            if (!idle.waitFor(30, TimeUnit.SECONDS)) {
                idle.destroyForcibly().waitFor();
            }
        }
    }

    /** The count of answered claims in a report line of {@link IdleRunners}. */
    private static long answeredOf(String report) {
        String[] words = report.split(" ");
        return words.length > 1 ? Long.parseLong(words[1]) : 0;
    }

    /** A real runner agent with the OpenTofu stand-in: RSS idle and while it runs 4 jobs at once. */
    void agentMemory(PlatformProcess platform, Polystack polystack) throws Exception {
        polystack.environment("agent");
        Path key = workspace.resolve("keys/agent.key");
        polystack.runner("agent", ProtocolRunner.keygen(key), 4);
        polystack
                .api()
                .body(Map.of("runner_id", "agent", "project_id", "shop", "env_id", "agent"))
                .post("/api/v1/orgs/acme/runner-rules")
                .then()
                .log()
                .ifValidationFails()
                .statusCode(201);
        Path tofu = StandInTofu.writeLauncher(workspace.resolve("bin"), System.getProperty("java.class.path"));
        try (AgentProcess agent = AgentProcess.start(
                platform.baseUrl(), "acme", "agent", key, tofu.toString(), workspace.resolve("agent"), 4)) {
            Thread.sleep(8000);
            long idle = rss(agent.pid());
            polystack.manifest(
                    "agent",
                    "shared:\n" + "  a: { type: thing, params: { apply_ms: 3000 } }\n"
                            + "  b: { type: thing, params: { apply_ms: 3000 } }\n  c: { type: thing, params: { apply_ms: 3000 } }\n"
                            + "  d: { type: thing, params: { apply_ms: 3000 } }\n");
            AtomicLong peak = new AtomicLong();
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    peak.accumulateAndGet(rss(agent.pid()), Math::max);
                    sleep(200);
                }
            });
            sampler.start();
            String id = polystack.deploy("agent");
            String status = polystack.await("agent", id, Duration.ofMinutes(3));
            sampling.set(false);
            sampler.join();
            report.put(
                    "runner_agent_rss_mib",
                    Map.of("idle", mibOf(idle), "peak_with_4_jobs", mibOf(peak.get()), "deployment", status));
            row("memory", "runner-agent RSS idle (the agent JVM, not tofu)", mib(idle), "");
            row("", "runner-agent RSS peak while running 4 jobs", mib(peak.get()), "deployment " + status);
        }
    }

    static String pem(java.security.PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + java.util.Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(key.getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }
}
