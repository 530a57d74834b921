package dev.polystack.platform.deployment.jobs;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The limits of running jobs, a runner's own and its organization's quota, as the database checks them: when a claim
 * commits (migration {@code V42}). A claim marks its job running and states the limits it claims within, in a setting
 * local to its transaction; at commit a trigger takes the organization's lock of running jobs, counts, and refuses the
 * commit when a limit would be passed. So claims of one organization wait for each other's commits only.
 */
public final class JobLimits {

    /** The deferred constraint trigger that checks the limits at commit, or earlier when a claim sets it immediate. */
    static final String CONSTRAINT = "job_claimed_within_limits";

    /** The SQL state of a commit refused because it would pass a limit. */
    static final String REFUSED = "PSJ01";

    private JobLimits() {}

    /**
     * The value of the setting {@code polystack.claim_limits}, local to a claim's transaction, for a claim within these
     * limits: the runner's, a comma, the organization's.
     */
    static String stated(int runnerLimit, int organizationLimit) {
        return runnerLimit + "," + organizationLimit;
    }

    /**
     * Whether a first look found a limit nearly reached: at most a quarter of its places free (one, for a limit under
     * eight). A claim that came with no result then checks the limits when it marks its job, not at its commit: claims
     * that race for the last places learn of a refusal before their commit, and claims with places enough do not hold
     * the organization's lock through a round trip. Either way the check at the end is exact.
     */
    public static boolean nearlyReached(int running, int limit) {
        return limit - running <= Math.max(1, limit / 4);
    }

    /**
     * Whether a failure is a commit (or a check made before it) the limits refused. The database's error reaches the
     * caller wrapped, by the transaction manager as the cause or a suppressed exception of what it throws, by
     * Hibernate as a cause; every one is looked at.
     */
    public static boolean refusedAtCommit(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> next = new ArrayDeque<>();
        next.add(failure);
        while (!next.isEmpty()) {
            Throwable current = next.poll();
            if (!seen.add(current)) {
                continue;
            }
            if (current instanceof SQLException sql) {
                if (REFUSED.equals(sql.getSQLState())) {
                    return true;
                }
                if (sql.getNextException() != null) {
                    next.add(sql.getNextException());
                }
            }
            if (current.getCause() != null) {
                next.add(current.getCause());
            }
            Collections.addAll(next, current.getSuppressed());
        }
        return false;
    }
}
