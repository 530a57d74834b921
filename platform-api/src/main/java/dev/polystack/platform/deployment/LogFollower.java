package dev.polystack.platform.deployment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.deployment.logs.LogLine;
import dev.polystack.platform.deployment.logs.LogService;
import dev.polystack.platform.deployment.scheduling.Notifications;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Follows a deployment's logs as Server-Sent Events: one {@code log} event per line as its batch is
 * stored, then an {@code end} event when the deployment has ended and every line was sent. No thread
 * waits for the next line: each read runs on a worker and returns it; between reads the stream parks on
 * the deployment's notification (sent when a batch is stored or the deployment moves), at most for
 * {@link #POLL}, after which it looks again in case a notification of another replica was lost.
 */
@ApplicationScoped
public class LogFollower {

    static final Duration POLL = Duration.ofMillis(500);

    private static final int BATCHES_PER_READ = 100;

    @Inject
    LogService logs;

    @Inject
    Notifications notifications;

    @Inject
    ObjectMapper json;

    /** A read: the lines found after the position, and whether the stream is over. */
    private record Chunk(List<LogLine> lines, boolean end) {}

    /** Stops the repetition after the end was sent (a null item would be skipped and repeated at once). */
    private static final Chunk DONE = new Chunk(List.of(), true);

    public Multi<OutboundSseEvent> follow(Sse sse, UUID deployment, String node) {
        AtomicLong position = new AtomicLong();
        AtomicBoolean over = new AtomicBoolean();
        return Multi.createBy()
                .repeating()
                .uni(() -> over.get() ? Uni.createFrom().item(DONE) : next(deployment, node, position, over))
                .until(chunk -> chunk == DONE)
                .onItem()
                .transformToIterable(chunk -> events(sse, chunk));
    }

    private Uni<Chunk> next(UUID deployment, String node, AtomicLong position, AtomicBoolean over) {
        String key = deployment.toString();
        // registered before the read, so that a batch stored during the read wakes the stream
        CompletableFuture<Void> wake = notifications.await(Notifications.DEPLOYMENTS, key);
        return Uni.createFrom()
                .item(() -> {
                    boolean finished = logs.finished(deployment);
                    List<LogService.Batch> batches = logs.after(deployment, node, position.get(), BATCHES_PER_READ);
                    List<LogLine> lines = new ArrayList<>();
                    for (LogService.Batch batch : batches) {
                        lines.addAll(batch.lines());
                        position.set(batch.sequence());
                    }
                    // ended, and everything stored before the end was read: nothing can follow
                    return new Chunk(lines, batches.isEmpty() && finished);
                })
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .chain(chunk -> {
                    if (chunk.end()) {
                        over.set(true);
                    }
                    if (chunk.end() || !chunk.lines().isEmpty()) {
                        return Uni.createFrom().item(chunk);
                    }
                    return Uni.createFrom()
                            .completionStage(wake)
                            .ifNoItem()
                            .after(POLL)
                            .recoverWithItem((Void) null)
                            .replaceWith(chunk);
                })
                .eventually(() -> notifications.forget(Notifications.DEPLOYMENTS, key, wake));
    }

    private List<OutboundSseEvent> events(Sse sse, Chunk chunk) {
        List<OutboundSseEvent> events = new ArrayList<>(chunk.lines().size() + 1);
        for (LogLine line : chunk.lines()) {
            events.add(sse.newEvent("log", write(line)));
        }
        if (chunk.end()) {
            events.add(sse.newEvent("end", "{}"));
        }
        return events;
    }

    private String write(LogLine line) {
        try {
            return json.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a log line could not be written as JSON", e);
        }
    }
}
