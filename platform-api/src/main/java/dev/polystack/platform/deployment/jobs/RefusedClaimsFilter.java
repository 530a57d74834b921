package dev.polystack.platform.deployment.jobs;

import io.quarkus.logging.LoggingFilter;

import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * Keeps a claim refused at its commit by the limits of running jobs ({@link JobLimits}) out of the log as the
 * transaction manager's warning of a failed commit, with its stack trace: it is no failure, but a claim that took no
 * job because another took the last place first (the claim logs it at debug). Every other record passes, every other
 * failed commit included.
 */
@LoggingFilter(name = RefusedClaimsFilter.NAME)
public final class RefusedClaimsFilter implements Filter {

    static final String NAME = "refused-claims";

    /** The transaction manager's logger, which warns of a resource's failed commit. */
    static final String TRANSACTIONS = "com.arjuna.ats.jta";

    @Override
    public boolean isLoggable(LogRecord record) {
        return !TRANSACTIONS.equals(record.getLoggerName())
                || record.getThrown() == null
                || !JobLimits.refusedAtCommit(record.getThrown());
    }
}
