package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Bounds how many requests of one expensive kind run at once. The others wait their turn, up to a limit,
 * then get 503 (busy, retry) instead of running the server out of memory or connections together.
 */
public final class Bulkhead {

    private final Semaphore permits;
    private final Duration wait;
    private final String what;

    /** {@code what} names the requests in the 503's detail, e.g. "resource-graph reads". */
    public Bulkhead(int concurrent, Duration wait, String what) {
        if (concurrent < 1) {
            throw new IllegalArgumentException("at least one " + what + " must be able to run");
        }
        this.permits = new Semaphore(concurrent, true);
        this.wait = wait;
        this.what = what;
    }

    public <T> T call(Supplier<T> work) {
        boolean admitted;
        try {
            admitted = permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            admitted = false;
        }
        if (!admitted) {
            throw new PlatformException(
                    ProblemType.UNAVAILABLE, "the service is busy: too many " + what + " at once; retry shortly");
        }
        try {
            return work.get();
        } finally {
            permits.release();
        }
    }
}
