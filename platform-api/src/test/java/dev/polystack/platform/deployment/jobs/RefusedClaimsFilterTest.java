package dev.polystack.platform.deployment.jobs;

import org.junit.jupiter.api.Test;

import javax.transaction.xa.XAException;
import java.sql.SQLException;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.assertj.core.api.Assertions.assertThat;

/** A claim refused at its commit by the limits is recognised, wherever the transaction manager wrapped it, and not warned of. */
class RefusedClaimsFilterTest {

    private final RefusedClaimsFilter filter = new RefusedClaimsFilter();

    @Test
    void theTransactionManagersWarningOfACommitTheLimitsRefusedIsLeftOut() {
        assertThat(filter.isLoggable(warning(RefusedClaimsFilter.TRANSACTIONS, committing(refused()))))
                .isFalse();
    }

    @Test
    void everyOtherRecordPasses() {
        assertThat(filter.isLoggable(warning(
                        RefusedClaimsFilter.TRANSACTIONS,
                        committing(new SQLException("the connection broke", "08006")))))
                .as("another failed commit")
                .isTrue();
        assertThat(filter.isLoggable(warning(RefusedClaimsFilter.TRANSACTIONS, null)))
                .as("a warning without an exception")
                .isTrue();
        assertThat(filter.isLoggable(
                        warning("dev.polystack.platform.deployment.jobs.JobService", committing(refused()))))
                .as("another logger's record")
                .isTrue();
    }

    @Test
    void aRefusalIsFoundAsACauseASuppressedExceptionOrANextExceptionAndACycleEnds() {
        RuntimeException suppressing = new RuntimeException("rolled back");
        suppressing.addSuppressed(committing(refused()));
        assertThat(JobLimits.refusedAtCommit(suppressing)).as("suppressed").isTrue();
        SQLException batch = new SQLException("a batch failed", "XX000");
        batch.setNextException(refused());
        assertThat(JobLimits.refusedAtCommit(new IllegalStateException(batch)))
                .as("a next exception")
                .isTrue();
        RuntimeException first = new RuntimeException("first");
        RuntimeException second = new RuntimeException("second", first);
        first.addSuppressed(second);
        assertThat(JobLimits.refusedAtCommit(first)).as("a cycle of exceptions").isFalse();
    }

    private static SQLException refused() {
        return new SQLException("job would pass its runner's or its organization's limit of running jobs", "PSJ01");
    }

    /** The resource's failure as the transaction manager receives it. */
    private static XAException committing(SQLException cause) {
        XAException failure = new XAException(XAException.XA_RBROLLBACK);
        failure.initCause(cause);
        return failure;
    }

    private static LogRecord warning(String logger, Throwable thrown) {
        LogRecord record = new LogRecord(Level.WARNING, "ARJUNA016039: onePhaseCommit failed");
        record.setLoggerName(logger);
        record.setThrown(thrown);
        return record;
    }
}
