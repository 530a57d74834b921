package dev.polystack.runner;

import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.HeartbeatReply;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.JobStatus;
import dev.polystack.runner.protocol.Operation;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agent's slot loop against a scripted control plane: a slot's result asks for the next job and runs
 * what comes back without claiming; a shutting-down agent asks for nothing and reports every job it holds.
 */
class AgentTest {

    private final AgentConfig config = AgentConfig.load(
            List.of("--url=http://cp.example", "--org=acme", "--runner=r1", "--claim-wait=1s", "--shutdown-grace=5s"),
            Map.of());

    @Test
    void aSlotRunsTheJobItsResultWasAnsweredWithBeforeClaimingAgain() throws Exception {
        ClaimedJob first = job();
        ClaimedJob second = job();
        ClaimedJob third = job();
        ScriptedControlPlane controlPlane = new ScriptedControlPlane(first);
        controlPlane.nextFor.put(first.jobId(), second);
        controlPlane.nextFor.put(second.jobId(), third);
        List<UUID> ran = new CopyOnWriteArrayList<>();
        Agent agent = new Agent(
                config,
                controlPlane,
                (job, shutdown) -> new Succeeding(config, controlPlane, job, shutdown, ran, null));
        agent.start();
        try {
            waitUntil(() -> controlPlane.reported.size() >= 3);
            assertThat(ran).containsExactly(first.jobId(), second.jobId(), third.jobId());
            assertThat(controlPlane.claimedJobs.get())
                    .as("claims that returned a job")
                    .isEqualTo(1);
            assertThat(controlPlane.reported).extracting(Report::askedForNext).containsExactly(true, true, true);
        } finally {
            agent.shutdown();
        }
    }

    @Test
    void anAgentShuttingDownDoesNotAskForTheNextJob() throws Exception {
        ClaimedJob first = job();
        ScriptedControlPlane controlPlane = new ScriptedControlPlane(first);
        controlPlane.nextFor.put(first.jobId(), job());
        List<UUID> ran = new CopyOnWriteArrayList<>();
        Agent[] agent = new Agent[1];
        // the job runs until the shutdown has begun
        agent[0] = new Agent(
                config,
                controlPlane,
                (job, shutdown) -> new Succeeding(config, controlPlane, job, shutdown, ran, () -> agent[0].stopping()));
        agent[0].start();
        waitUntil(() -> !ran.isEmpty());
        assertThat(ran).as("the job began").hasSize(1);
        agent[0].shutdown();
        agent[0].awaitTermination();
        assertThat(ran).containsExactly(first.jobId());
        assertThat(controlPlane.reported).extracting(Report::askedForNext).containsExactly(false);
    }

    @Test
    void aJobThatCameWithAResultWhileTheAgentBeganToStopIsReportedCancelled() throws Exception {
        ClaimedJob first = job();
        ClaimedJob second = job();
        ScriptedControlPlane controlPlane = new ScriptedControlPlane(first);
        controlPlane.nextFor.put(first.jobId(), second);
        List<UUID> ran = new CopyOnWriteArrayList<>();
        Agent[] agent = new Agent[1];
        // the shutdown begins between the report that asked for the next job and its answer
        // (shutdown() blocks until the slots end, so on a thread of its own; the answer waits until it has begun)
        controlPlane.beforeAnswer = () -> {
            new Thread(() -> agent[0].shutdown()).start();
            waitUntil(() -> agent[0].stopping());
        };
        agent[0] = new Agent(
                config,
                controlPlane,
                (job, shutdown) -> new Succeeding(config, controlPlane, job, shutdown, ran, null));
        agent[0].start();
        agent[0].awaitTermination();
        assertThat(ran).containsExactly(first.jobId());
        assertThat(controlPlane.reported).extracting(Report::job).containsExactly(first.jobId(), second.jobId());
        assertThat(controlPlane.reported.get(1).status()).isEqualTo(JobStatus.CANCELLED);
    }

    /** A job to apply, as a claim hands it out. */
    static ClaimedJob job() {
        return new ClaimedJob(
                UUID.randomUUID(),
                UUID.randomUUID(),
                1,
                Operation.APPLY,
                new ClaimedJob.Resource("thing", "default", "app.a"),
                new ClaimedJob.Environment("acme", "shop", "prod", "production"),
                new ClaimedJob.Module("m", 1, "inline", ""),
                ControlPlane.JSON.createObjectNode(),
                List.of(),
                List.of(),
                List.of(),
                new ClaimedJob.State("http://cp/s", "http://cp/l", "http://cp/u", "job", "password"),
                60,
                60);
    }

    record Report(UUID job, JobStatus status, boolean askedForNext) {}

    /** Hands out one job to the first claim; answers results from {@link #nextFor}. */
    static final class ScriptedControlPlane extends ControlPlane {
        final Deque<ClaimedJob> claimable = new ArrayDeque<>();
        final Map<UUID, ClaimedJob> nextFor = new java.util.concurrent.ConcurrentHashMap<>();
        final List<Report> reported = new CopyOnWriteArrayList<>();
        final AtomicInteger claimedJobs = new AtomicInteger();
        volatile Runnable beforeAnswer = () -> {};

        ScriptedControlPlane(ClaimedJob first) {
            super(URI.create("http://cp.example"), "acme", "r1", "polystack", key());
            claimable.add(first);
        }

        private static java.security.PrivateKey key() {
            try {
                return KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate();
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public synchronized Optional<ClaimedJob> claim(Duration wait) {
            ClaimedJob job = claimable.poll();
            if (job == null) {
                try {
                    wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Optional.empty();
            }
            claimedJobs.incrementAndGet();
            return Optional.of(job);
        }

        @Override
        public HeartbeatReply heartbeat(UUID job) {
            return new HeartbeatReply(false, Instant.now().plusSeconds(60));
        }

        @Override
        public Optional<ClaimedJob> resultAndNext(UUID job, JobResult result, boolean next) {
            reported.add(new Report(job, result.status(), next));
            if (!next) {
                return Optional.empty();
            }
            beforeAnswer.run();
            return Optional.ofNullable(nextFor.get(job));
        }
    }

    /**
     * Waits until {@code condition} holds, at most 10 s, looking every millisecond; the caller's assertions say what
     * failed when it never held.
     */
    private static void waitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    /** A job that succeeds, once {@code until} holds when one is given (at once otherwise). */
    static final class Succeeding extends JobSupervisor {
        private final List<UUID> ran;
        private final BooleanSupplier until;

        Succeeding(
                AgentConfig config,
                ControlPlane controlPlane,
                ClaimedJob job,
                java.util.concurrent.atomic.AtomicBoolean shutdown,
                List<UUID> ran,
                BooleanSupplier until) {
            super(config, controlPlane, job, shutdown);
            this.ran = ran;
            this.until = until;
        }

        @Override
        protected JobResult execute() {
            ran.add(job.jobId());
            if (until != null) {
                waitUntil(until);
            }
            return new JobResult(JobStatus.SUCCEEDED, Map.of(), List.of(), null, null);
        }
    }
}
