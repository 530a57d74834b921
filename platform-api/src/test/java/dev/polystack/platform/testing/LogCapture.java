package dev.polystack.platform.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** The log records this process writes while a piece of a test runs, as many as {@code which} keeps. */
public final class LogCapture {

    /** A piece of a test that may throw. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    private LogCapture() {}

    public static List<LogRecord> during(Predicate<LogRecord> which, Step step) throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (which.test(record)) {
                    records.add(record);
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        root.addHandler(handler);
        try {
            step.run();
        } finally {
            root.removeHandler(handler);
        }
        return records;
    }
}
