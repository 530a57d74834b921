package dev.polystack.runner;

import dev.polystack.runner.protocol.LogBatch;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Collects a job's log lines and sends them in numbered batches: when 200 lines are waiting, at least
 * every second, and at the end. A batch that fails to send is retried with the same number (the
 * control plane stores each number once).
 */
public final class LogShipper implements LineSink, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(LogShipper.class.getName());
    private static final int BATCH_LINES = 200;

    /** Where batches go: the control plane's log endpoint. */
    @FunctionalInterface
    interface Sender {
        void send(UUID job, LogBatch batch) throws IOException;
    }

    private final Sender sender;
    private final UUID job;
    private final List<LogBatch.Line> pending = new ArrayList<>();
    private final Thread flusher;
    private int nextBatch;
    private volatile boolean closed;

    public LogShipper(ControlPlane controlPlane, UUID job) {
        this(controlPlane::logs, job);
    }

    LogShipper(Sender sender, UUID job) {
        this.sender = sender;
        this.job = job;
        this.flusher = new Thread(this::flushPeriodically, "logs-" + job);
        this.flusher.setDaemon(true);
        this.flusher.start();
    }

    /** Adds a raw line of tofu output. */
    @Override
    public void line(String raw) {
        LogBatch.Line line = UiStream.parse(raw);
        if (line != null) {
            add(line);
        }
    }

    @Override
    public void stderr(String raw, String level) {
        if (!raw.isBlank()) {
            add(UiStream.stderrLine(raw, level));
        }
    }

    /** Adds a line of the agent's own. */
    @Override
    public void note(String message) {
        add(new LogBatch.Line(Instant.now(), "info", "agent", message));
    }

    private void add(LogBatch.Line line) {
        boolean full;
        synchronized (pending) {
            pending.add(line);
            full = pending.size() >= BATCH_LINES;
        }
        if (full) {
            flush();
        }
    }

    /**
     * Sends every second until closed. It is woken, never interrupted: an interrupt during a send would
     * make the HTTP client give up on the batch in flight, and its lines would be lost.
     */
    private void flushPeriodically() {
        while (!closed) {
            synchronized (pending) {
                try {
                    pending.wait(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (!closed) {
                flush();
            }
        }
    }

    /** Sends what is waiting, as the next numbered batch. */
    public synchronized void flush() {
        List<LogBatch.Line> lines;
        synchronized (pending) {
            if (pending.isEmpty()) {
                return;
            }
            lines = new ArrayList<>(pending);
            pending.clear();
        }
        LogBatch batch = new LogBatch(nextBatch++, lines);
        for (int attempt = 1; ; attempt++) {
            try {
                sender.send(job, batch);
                return;
            } catch (ControlPlane.RefusedException | ControlPlane.LeaseLostException e) {
                // sent again, it would be refused again
                LOG.warning("dropping log batch " + batch.batch() + " of job " + job + ": " + e.getMessage());
                return;
            } catch (IOException e) {
                if (attempt >= 5) {
                    LOG.warning("dropping log batch " + batch.batch() + " of job " + job + " after 5 attempts: "
                            + e.getMessage());
                    return;
                }
                sleep(attempt * 500L);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (pending) {
            pending.notifyAll();
        }
        // flush() is synchronized: this waits for a batch the flusher is sending, then sends the rest
        flush();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
