package dev.polystack.tests;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.polystack.runner.ControlPlane;
import dev.polystack.runner.Keys;
import dev.polystack.runner.protocol.ClaimedJob;
import dev.polystack.runner.protocol.JobResult;
import dev.polystack.runner.protocol.JobStatus;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A runner that speaks the real protocol through the agent's own client (signed JWTs, long-poll claims,
 * results) but runs no OpenTofu: each job takes a fixed time and reports its outputs. For tests and
 * benchmarks about the control plane's dispatching rather than about tofu.
 */
final class ProtocolRunner implements AutoCloseable {

    /** A job as this runner saw it. */
    record Executed(ClaimedJob job, Instant claimed, Instant finished, String slot) {}

    private final ControlPlane controlPlane;
    private final Duration work;
    private final List<Thread> slots = new CopyOnWriteArrayList<>();
    private final AtomicBoolean stopping = new AtomicBoolean();
    final List<Executed> executed = new CopyOnWriteArrayList<>();
    /** Called with each job and the moment its claim returned. */
    volatile java.util.function.BiConsumer<ClaimedJob, Instant> onClaim = (job, at) -> {};

    final List<String> failures = new CopyOnWriteArrayList<>();

    private ProtocolRunner(ControlPlane controlPlane, Duration work) {
        this.controlPlane = controlPlane;
        this.work = work;
    }

    /** Generates a key pair; returns the public key to register. */
    static String keygen(Path keyFile) throws IOException {
        return Keys.generate(keyFile);
    }

    static ProtocolRunner start(String url, String org, String runner, Path keyFile, int slots, Duration work) {
        ProtocolRunner protocolRunner = new ProtocolRunner(
                new ControlPlane(URI.create(url), org, runner, "polystack", Keys.load(keyFile)), work);
        for (int i = 0; i < slots; i++) {
            Thread slot = new Thread(protocolRunner::loop, runner + "-slot-" + i);
            slot.setDaemon(true);
            protocolRunner.slots.add(slot);
            slot.start();
        }
        return protocolRunner;
    }

    /** As the agent's slots: a result asks for the next job, and a claim is made only when none came with it. */
    private void loop() {
        Optional<ClaimedJob> next = Optional.empty();
        while (!stopping.get()) {
            try {
                Optional<ClaimedJob> claimed = next.isPresent() ? next : controlPlane.claim(Duration.ofSeconds(5));
                next = Optional.empty();
                if (claimed.isEmpty()) {
                    continue;
                }
                Instant at = Instant.now();
                ClaimedJob job = claimed.get();
                onClaim.accept(job, at);
                if (!work.isZero()) {
                    Thread.sleep(work.toMillis());
                }
                String name = job.environment().env() + "-" + job.resource().id();
                next = controlPlane.resultAndNext(
                        job.jobId(),
                        new JobResult(
                                JobStatus.SUCCEEDED,
                                Map.of("name", new JobResult.Output(TextNode.valueOf(name), false)),
                                List.of(),
                                new JobResult.PlanSummary(1, 0, 0),
                                null),
                        !stopping.get());
                executed.add(new Executed(
                        job, at, Instant.now(), Thread.currentThread().getName()));
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                if (!stopping.get()) {
                    failures.add(e.getMessage());
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        stopping.set(true);
        for (Thread slot : slots) {
            slot.interrupt();
            slot.join(10_000);
        }
    }
}
