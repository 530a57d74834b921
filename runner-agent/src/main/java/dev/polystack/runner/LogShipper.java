package dev.polystack.runner;

import dev.polystack.runner.protocol.LogBatch;

import java.io.IOException;
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

    private final ControlPlane controlPlane;
    private final UUID job;
    private final List<LogBatch.Line> pending = new ArrayList<>();
    private final Thread flusher;
    private int nextBatch;
    private volatile boolean closed;

    public LogShipper(ControlPlane controlPlane, UUID job) {
        this.controlPlane = controlPlane;
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
        add(new LogBatch.Line(java.time.Instant.now(), "info", "agent", message));
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

    private void flushPeriodically() {
        while (!closed) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            flush();
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
                controlPlane.logs(job, batch);
                return;
            } catch (IOException e) {
                if (attempt >= 5) {
                    LOG.warning("dropping log batch " + batch.batch() + " of job " + job + " after 5 attempts: " + e.getMessage());
                    return;
                }
                sleep(attempt * 500L);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        flusher.interrupt();
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
