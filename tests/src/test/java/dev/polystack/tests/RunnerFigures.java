package dev.polystack.tests;

import dev.polystack.tests.standin.StandInTofu;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.polystack.tests.Figures.cpuByThread;
import static dev.polystack.tests.Figures.cpuSeconds;
import static dev.polystack.tests.Figures.mib;
import static dev.polystack.tests.Figures.mibOf;
import static dev.polystack.tests.Figures.ms;
import static dev.polystack.tests.Figures.percentiles;
import static dev.polystack.tests.Figures.rss;
import static dev.polystack.tests.Figures.sleep;
import static dev.polystack.tests.Figures.status;
import static dev.polystack.tests.Figures.threadCpu;
import static dev.polystack.tests.Figures.threads;

/** What runners meet: pickup latency, many idle long-polling runners, a real agent's memory. */
final class RunnerFigures extends BenchmarkPart {

    RunnerFigures(BenchReport report, Path workspace) {
        super(report, workspace);
    }

    /** 200 single-node deployments one after another: from the job being queued to its claim returning. */
    void pickup(PlatformProcess platform, Polystack polystack) throws Exception {
        List<Double> latencies = pickupLatencies(polystack, "pickup", "idle-runner", 200);
        Map<String, Double> p = percentiles(latencies);
        report.put("pickup_latency_ms", p);
        row(
                "pickup",
                "queued → claim returned, 200 deployments, 1 idle long-polling runner",
                ms(p.get("p50")) + " p50",
                "");
        row("", "", ms(p.get("p95")) + " p95", "");
        row("", "", ms(p.get("p99")) + " p99", "target p99 < 50 ms: " + (p.get("p99") < 50 ? "met" : "NOT met"));
        Map<String, Double> answer = percentiles(lastQueuedToAnswer);
        report.put("pickup_queued_to_create_answer_ms", answer);
        row(
                "",
                "… of it, queued → the create call's answer reached the harness",
                ms(answer.get("p50")) + " p50",
                "p95 " + ms(answer.get("p95")) + ", p99 " + ms(answer.get("p99")));
        target("pickup p99, job queued → claim returned, 1 idle runner", p.get("p99"), "ms", "<", 50);
    }

    /** Many idle long-polling runners against one control plane: its memory, threads, and a probe's pickup latency. */
    void scale(PlatformProcess platform, Polystack polystack, int count) throws Exception {
        HttpClient http = HttpClient.newBuilder()
                .executor(Executors.newFixedThreadPool(4))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        List<KeyPair> keys = new ArrayList<>();
        KeyPairGenerator generator = KeyPairGenerator.getInstance("Ed25519");
        long registering = System.nanoTime();
        for (int i = 0; i < count; i++) {
            KeyPair pair = generator.generateKeyPair();
            keys.add(pair);
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
        long threadsBefore = threads(platform.pid());
        AtomicBoolean polling = new AtomicBoolean(true);
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        Map<Integer, String> tokens = new ConcurrentHashMap<>();
        CountDownLatch started = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int runner = i;
            tokens.put(runner, jwt("idle-" + runner, keys.get(runner).getPrivate()));
            poll(http, platform.baseUrl(), runner, tokens, keys, polling, answered, errors, started);
        }
        started.await(60, TimeUnit.SECONDS);
        Thread.sleep(5_000);
        // what the idle looks cost: the control plane's and PostgreSQL's CPU over 10 s of nothing but waiting claims
        double[] cpuBefore = cpuSeconds(platform.pid());
        Map<String, Double> threadsCpuBefore = threadCpu(platform.pid());
        int answeredBefore = answered.get();
        long idleStart = System.nanoTime();
        Thread.sleep(10_000);
        double idleSeconds = (System.nanoTime() - idleStart) / 1e9;
        int looks = answered.get() - answeredBefore;
        double[] cpuAfter = cpuSeconds(platform.pid());
        String idleThreads = cpuByThread(threadsCpuBefore, threadCpu(platform.pid()));
        long rss = rss(platform.pid());
        long threads = threads(platform.pid());
        List<Double> probe = pickupLatencies(polystack, "probe", "probe", 200);
        Map<String, Double> p = percentiles(probe);
        long rssAfter = rss(platform.pid());
        polling.set(false);
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
                        "poll_errors",
                        errors.get()));
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
                        postgresPerLook));
        row("scale", count + " idle long-polling runners: platform-api RSS", mib(Math.max(rss, rssAfter)), "");
        row(
                "",
                String.format(
                        "… idle looks answered (10 s, nothing queued): %.0f /s; CPU per look: platform-api,"
                                + " PostgreSQL",
                        looks / idleSeconds),
                String.format("%.2f ms", platformPerLook),
                String.format("%.2f ms; platform-api threads: %s", postgresPerLook, idleThreads));
        row("", "… platform-api threads (before the runners: " + threadsBefore + ")", Long.toString(threads), "");
        row(
                "",
                "… pickup of a probe runner's jobs meanwhile (200 deployments, queued → claim returned)",
                ms(p.get("p99")) + " p99",
                "p50 " + ms(p.get("p50")) + ", " + errors.get() + " poll errors " + pollErrors);
        target(
                "pickup p99 of a probe runner among " + count + " idle runners (the aim: 5,000)",
                p.get("p99"),
                "ms",
                "<",
                50);
    }

    /** Why idle runners' polls failed, and how often (a 401 is an expired token, renewed then). */
    private final Map<String, Integer> pollErrors = new ConcurrentHashMap<>();

    void poll(
            HttpClient http,
            String base,
            int runner,
            Map<Integer, String> tokens,
            List<KeyPair> keys,
            AtomicBoolean polling,
            AtomicInteger answered,
            AtomicInteger errors,
            CountDownLatch started) {
        if (!polling.get()) {
            return;
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/api/runner/v1/claim?wait=25000ms"))
                .timeout(Duration.ofSeconds(45))
                .header("Authorization", "Bearer " + tokens.get(runner))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        started.countDown();
        http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, failure) -> {
            if (failure != null || response.statusCode() >= 400) {
                errors.incrementAndGet();
                pollErrors.merge(
                        failure != null
                                ? failure.getClass().getSimpleName() + ": " + failure.getMessage()
                                : "HTTP " + response.statusCode(),
                        1,
                        Integer::sum);
                if (response != null && response.statusCode() == 401) {
                    tokens.put(runner, jwt("idle-" + runner, keys.get(runner).getPrivate()));
                }
            } else {
                answered.incrementAndGet();
            }
            poll(http, base, runner, tokens, keys, polling, answered, errors, new CountDownLatch(0));
        });
    }

    static String jwt(String runner, PrivateKey key) {
        try {
            JwtClaims claims = new JwtClaims();
            claims.setSubject(runner);
            claims.setClaim("org", "acme");
            claims.setAudience("polystack");
            long now = System.currentTimeMillis() / 1000;
            claims.setIssuedAt(NumericDate.fromSeconds(now));
            claims.setExpirationTime(NumericDate.fromSeconds(now + 240));
            claims.setGeneratedJwtId();
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setKey(key);
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.EDDSA);
            return jws.getCompactSerialization();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
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
