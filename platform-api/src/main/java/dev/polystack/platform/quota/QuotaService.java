package dev.polystack.platform.quota;

import dev.polystack.platform.common.PolystackConfig;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.sql.InTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Organizations' quotas: their limits (set by instance administrators, defaults from configuration),
 * what each organization uses, and the checks before something is created or run. A check that counts
 * holds a transaction-scoped advisory lock per organization and quota, so that two concurrent requests
 * cannot both take the last place.
 */
@ApplicationScoped
public class QuotaService {

    /** The first key of the advisory locks; the quota's ordinal is added to it. */
    private static final int LOCK_SPACE = 0x51_0000;

    /** Takes a quota's lock of one owner, its two keys the parameters ({@link #lockKey}). */
    private static final String LOCK = "pg_advisory_xact_lock(?, ?)";

    static final Duration CACHED = Duration.ofSeconds(5);
    private static final int MAX_CACHED = 10_000;

    private final ConcurrentHashMap<UUID, Cached> cache = new ConcurrentHashMap<>();

    @Inject
    EntityManager entityManager;

    @Inject
    PolystackConfig config;

    @Inject
    Clock clock;

    /**
     * The limit of one quota for an organization. Every claim asks twice: a limit read within {@link #CACHED} is
     * answered without the transaction's interceptor, which cost more than the lookup.
     */
    public int limit(UUID orgId, Quota quota) {
        Cached cached = cache.get(orgId);
        if (cached != null && cached.fresh(System.nanoTime())) {
            return cached.limits().get(quota);
        }
        return limits(orgId).get(quota);
    }

    /**
     * The limits of an organization. They are read on every claim, so they are kept for {@link #CACHED}:
     * a change made on another replica applies there within that time (on this one at once).
     */
    @Transactional
    public Map<Quota, Integer> limits(UUID orgId) {
        Cached cached = cache.get(orgId);
        long now = System.nanoTime();
        if (cached != null && cached.fresh(now)) {
            return cached.limits();
        }
        OrgQuota set = entityManager.find(OrgQuota.class, orgId);
        Map<Quota, Integer> values = set == null ? Map.of() : set.values();
        Map<Quota, Integer> limits = new EnumMap<>(Quota.class);
        for (Quota quota : Quota.values()) {
            limits.put(quota, values.getOrDefault(quota, quota.defaultIn(config.quotas())));
        }
        Map<Quota, Integer> frozen = Collections.unmodifiableMap(limits);
        if (cache.size() > MAX_CACHED) {
            cache.clear();
        }
        cache.put(orgId, new Cached(frozen, now));
        return frozen;
    }

    private record Cached(Map<Quota, Integer> limits, long readAt) {
        boolean fresh(long now) {
            return now - readAt < CACHED.toNanos();
        }
    }

    /**
     * Refuses with a 403 {@code quota-exceeded} problem when one more would pass the quota. {@code used}
     * is counted after the lock is taken; the lock holds until the transaction ends.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void requireRoom(UUID orgId, Quota quota, String what, LongSupplier used) {
        int limit = lockedLimit(orgId, quota);
        long count = used.getAsLong();
        if (count >= limit) {
            throw PlatformException.quotaExceeded(
                    quota.wireName(),
                    limit,
                    count,
                    "the quota `" + quota.wireName() + "` (" + quota.description()
                            + ") is " + limit + " and " + count + " " + (count == 1 ? "is" : "are") + " used"
                            + (what == null ? "" : " " + what)
                            + "; an instance administrator can raise it");
        }
    }

    /** Refuses when a count that is known up front (the resources of a manifest) passes the quota. */
    @Transactional
    public void requireWithin(UUID orgId, Quota quota, long count) {
        int limit = limit(orgId, quota);
        if (count > limit) {
            throw PlatformException.quotaExceeded(
                    quota.wireName(),
                    limit,
                    count,
                    "the quota `" + quota.wireName() + "` (" + quota.description() + ") is " + limit + "; this has "
                            + count + "; an instance administrator can raise it");
        }
    }

    /**
     * Refuses one more deployment for an environment that is busy (one runs or waits) and already has as
     * many waiting as the quota allows. The caller holds the environment's lock, which orders deployments.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void requireQueueRoom(UUID orgId, UUID environmentId, String environment) {
        Quota quota = Quota.QUEUED_DEPLOYMENTS_PER_ENVIRONMENT;
        long queued =
                count("select count(*) from deployment where environment_id = ?1 and status = 'queued'", environmentId);
        long running = count(
                "select count(*) from deployment where environment_id = ?1 and status in ('running', 'awaiting_approval')",
                environmentId);
        int limit = limit(orgId, quota);
        if (running + queued > 0 && queued >= limit) {
            throw PlatformException.quotaExceeded(
                    quota.wireName(),
                    limit,
                    queued,
                    "the quota `" + quota.wireName() + "` ("
                            + quota.description() + ") is " + limit + " and " + queued + " "
                            + (queued == 1 ? "waits" : "wait") + " in environment `"
                            + environment
                            + "`; wait for them to start, cancel one, or ask an instance administrator to raise it");
        }
    }

    /**
     * Takes one quota's lock until the transaction ends and returns its limit, for a caller that counts what is
     * used itself (after this) and takes the place when one is left.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public int lockedLimit(UUID orgId, Quota quota) {
        int limit = limit(orgId, quota);
        lock(orgId, quota);
        return limit;
    }

    /**
     * Refuses one more API token for a principal that has as many as the quota allows: its
     * organization's for a service user, the configured default for a user (users belong to the instance).
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void requireTokenRoom(UUID orgId, UUID principalId) {
        int limit =
                orgId == null ? Quota.TOKENS_PER_USER.defaultIn(config.quotas()) : limit(orgId, Quota.TOKENS_PER_USER);
        lock(principalId, Quota.TOKENS_PER_USER);
        long count = count(
                "select count(*) from api_token where principal_id = ?1 and revoked_at is null"
                        + " and (expires_at is null or expires_at > now())",
                principalId);
        if (count >= limit) {
            throw PlatformException.quotaExceeded(
                    Quota.TOKENS_PER_USER.wireName(),
                    limit,
                    count,
                    "the quota `tokens_per_user` ("
                            + Quota.TOKENS_PER_USER.description() + ") is " + limit + " and this one has " + count
                            + "; revoke one, or ask an"
                            + " instance administrator to raise it");
        }
    }

    @Transactional
    public QuotasView view(UUID orgId) {
        Map<Quota, Integer> limits = limits(orgId);
        OrgQuota set = entityManager.find(OrgQuota.class, orgId);
        Map<Quota, Integer> explicit = set == null ? Map.of() : set.values();
        List<QuotasView.Item> items = new ArrayList<>();
        for (Quota quota : Quota.values()) {
            items.add(new QuotasView.Item(
                    quota.wireName(),
                    quota.scope(),
                    quota.description(),
                    limits.get(quota),
                    used(orgId, quota),
                    !explicit.containsKey(quota)));
        }
        return new QuotasView(items);
    }

    @Transactional
    public QuotasView set(UUID orgId, QuotaRequest request) {
        OrgQuota quota = entityManager.find(OrgQuota.class, orgId);
        if (quota == null) {
            quota = new OrgQuota(orgId);
            quota.set(request, clock.instant());
            entityManager.persist(quota);
        } else {
            quota.set(request, clock.instant());
        }
        entityManager.flush();
        cache.remove(orgId);
        return view(orgId);
    }

    /** What the organization uses of a quota; for one counted per project, environment or user, the most any one uses. */
    public long used(UUID orgId, Quota quota) {
        String sql = switch (quota) {
            case PROJECTS -> "select count(*) from project where org_id = ?1";
            case ENVIRONMENTS_PER_PROJECT ->
                "select coalesce(max(n), 0) from (select count(*) n from environment where org_id = ?1 group by project_id) c";
            case RESOURCES_PER_MANIFEST ->
                "select coalesce(max(n), 0) from (select count(*) n from active_resource r join environment e"
                        + " on e.id = r.environment_id where e.org_id = ?1 group by r.environment_id) c";
            case QUEUED_DEPLOYMENTS_PER_ENVIRONMENT ->
                "select coalesce(max(n), 0) from (select count(*) n from deployment where org_id = ?1"
                        + " and status = 'queued' group by environment_id) c";
            case CONCURRENT_JOBS -> "select count(*) from job where org_id = ?1 and status = 'running'";
            case RUNNERS -> "select count(*) from runner where org_id = ?1";
            case TOKENS_PER_USER ->
                "select coalesce(max(n), 0) from (select count(*) n from api_token t join principal p on p.id = t.principal_id"
                        + " where p.org_id = ?1 and t.revoked_at is null and (t.expires_at is null or t.expires_at > now()) group by t.principal_id) c";
        };
        return count(sql, orgId);
    }

    /** A count of one query with the given parameters. */
    public long count(String sql, Object... parameters) {
        var query = entityManager.createNativeQuery(sql);
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return ((Number) query.getSingleResult()).longValue();
    }

    /** Locks one quota of one owner (an organization, or a principal for its tokens) until the transaction ends. */
    void lock(UUID owner, Quota quota) {
        // plain JDBC: taking a lock needs no flush of what the transaction changed so far
        InTransaction.execute(entityManager, "select " + LOCK, lockKey(owner, quota));
    }

    private static Object[] lockKey(UUID owner, Quota quota) {
        return new Object[] {LOCK_SPACE + quota.ordinal(), owner.hashCode()};
    }
}
