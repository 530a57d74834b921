package dev.polystack.platform.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.problem.ProblemType;
import dev.polystack.platform.common.sql.InTransaction;
import dev.polystack.platform.common.sql.Statement;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * OpenTofu's HTTP state backend, one state per (environment, resource). Every write is a new sealed
 * version; only the job that holds the resource's lease and lock may write, and a write from a job
 * whose lease expired is refused (fencing), so a lost runner can never overwrite newer state.
 */
@ApplicationScoped
public class StateService {

    @Inject
    EntityManager entityManager;

    @Inject
    SecretBox secretBox;

    @Inject
    ObjectMapper json;

    @Inject
    EnvironmentService environments;

    @Inject
    Clock clock;

    /** The outcome of LOCK and UNLOCK: done, or refused with the holder's lock info. */
    public record LockResult(boolean granted, JsonNode holder) {}

    /** The latest state of a resource, opened; empty when it has none yet. */
    @Transactional
    public Optional<byte[]> read(UUID environmentId, String resourceKey) {
        return latest(environmentId, resourceKey)
                .map(v -> secretBox.open(v.sealed(), StateVersion.binding(environmentId, resourceKey, v.id())));
    }

    @Transactional
    public void write(StateAccess access, String resourceKey, String lockId, byte[] body) {
        UUID environmentId = access.environmentId();
        lockRow(environmentId, resourceKey);
        Optional<Object[]> lock = currentLock(environmentId, resourceKey);
        if (lock.isEmpty()
                || !access.jobId().equals(lock.get()[1])
                || (lockId != null && !lockId.equals(lock.get()[0]))) {
            throw new PlatformException(
                    ProblemType.CONFLICT, "the state of " + resourceKey + " is not locked by this job; lock it first");
        }
        JsonNode state;
        try {
            state = json.readTree(body);
        } catch (IOException e) {
            throw PlatformException.invalid("/", "the state is not JSON");
        }
        if (state == null || !state.isObject()) {
            throw PlatformException.invalid("/", "the state is not a JSON object");
        }
        // both are what makes a stale or foreign write detectable: a state without them is refused
        if (!state.path("serial").canConvertToLong()
                || !state.path("serial").isIntegralNumber()
                || state.get("serial").asLong() < 0) {
            throw PlatformException.invalid("/serial", "a state must carry its serial, a whole number of 0 or more");
        }
        if (!state.path("lineage").isTextual() || state.get("lineage").asText().isBlank()) {
            throw PlatformException.invalid("/lineage", "a state must carry its lineage");
        }
        long serial = state.get("serial").asLong();
        String lineage = state.get("lineage").asText();
        Optional<StateVersion> latest = latest(environmentId, resourceKey);
        if (latest.isPresent()) {
            StateVersion previous = latest.get();
            if (previous.lineage() != null && !previous.lineage().equals(lineage)) {
                throw new PlatformException(
                        ProblemType.CONFLICT,
                        "the state has lineage " + lineage + " but the stored one has " + previous.lineage()
                                + "; refusing to replace another state's history");
            }
            if (previous.serial() != null && serial < previous.serial()) {
                throw new PlatformException(
                        ProblemType.CONFLICT,
                        "serial " + serial + " is older than the stored serial " + previous.serial()
                                + "; refusing a stale write");
            }
            if (previous.serial() != null && serial == previous.serial()) {
                byte[] stored = secretBox.open(
                        previous.sealed(), StateVersion.binding(environmentId, resourceKey, previous.id()));
                if (sameState(stored, state)) {
                    return; // a repeat of the stored version
                }
                throw new PlatformException(
                        ProblemType.CONFLICT,
                        "serial " + serial + " is stored already with other content; "
                                + "a changed state must have a higher serial");
            }
        }
        UUID id = UUID.randomUUID();
        byte[] sealed = secretBox.seal(body, StateVersion.binding(environmentId, resourceKey, id));
        entityManager.persist(new StateVersion(
                id, environmentId, resourceKey, serial, lineage, sealed, body.length, access.jobId(), clock.instant()));
    }

    private boolean sameState(byte[] stored, JsonNode state) {
        try {
            return json.readTree(stored).equals(state);
        } catch (IOException e) {
            return false;
        }
    }

    @Transactional
    public LockResult lock(StateAccess access, String resourceKey, JsonNode info) {
        UUID environmentId = access.environmentId();
        lockRow(environmentId, resourceKey);
        String lockId = info.path("ID").asText("");
        if (lockId.isEmpty()) {
            throw PlatformException.invalid("/ID", "the lock info needs an ID");
        }
        Optional<Object[]> current = currentLock(environmentId, resourceKey);
        if (current.isPresent()) {
            if (access.jobId().equals(current.get()[1]) && lockId.equals(current.get()[0])) {
                return new LockResult(true, null);
            }
            return new LockResult(false, holder(current.get()));
        }
        entityManager
                .createNativeQuery("""
                        insert into state_lock (environment_id, resource_key, lock_id, info, job_id, created_at)
                        values (?1, ?2, ?3, cast(?4 as jsonb), ?5, ?6)""")
                .setParameter(1, environmentId)
                .setParameter(2, resourceKey)
                .setParameter(3, lockId)
                .setParameter(4, info.toString())
                .setParameter(5, access.jobId())
                .setParameter(6, clock.instant())
                .executeUpdate();
        return new LockResult(true, null);
    }

    @Transactional
    public LockResult unlock(StateAccess access, String resourceKey, JsonNode info) {
        UUID environmentId = access.environmentId();
        lockRow(environmentId, resourceKey);
        Optional<Object[]> current = currentLock(environmentId, resourceKey);
        if (current.isEmpty()) {
            return new LockResult(true, null);
        }
        String lockId = info == null ? "" : info.path("ID").asText("");
        if (!lockId.equals(current.get()[0]) || !access.jobId().equals(current.get()[1])) {
            return new LockResult(false, holder(current.get()));
        }
        entityManager
                .createNativeQuery("delete from state_lock where environment_id = ?1 and resource_key = ?2")
                .setParameter(1, environmentId)
                .setParameter(2, resourceKey)
                .executeUpdate();
        return new LockResult(true, null);
    }

    /** Frees the locks a job left behind (it ended, or its runner was lost). */
    public void releaseLocksOf(UUID jobId) {
        // plain JDBC: no entity maps a state lock, so nothing needs flushing before the delete
        Statement release = releasingLocksOf(jobId);
        InTransaction.execute(entityManager, release.sql(), release.parameters());
    }

    /** The statement that frees the locks a job left behind, for a caller that sends it with others. */
    public Statement releasingLocksOf(UUID jobId) {
        return new Statement("delete from state_lock where job_id = ?", jobId);
    }

    /**
     * A page of a resource's state versions, newest first, without their contents: a version is up to the state
     * limit in size (32 MiB by default), so a list that read them would hold a page's worth of states in memory.
     */
    @Transactional
    public Page<StateVersionView> versions(
            OrgScope scope, String project, String env, String resourceKey, PageRequest page) {
        UUID environmentId = environments.reference(scope, project, env).id();
        PageRequest.InstantAndId after = page.afterInstantAndId();
        var query = entityManager
                .createQuery(
                        "select new dev.polystack.platform.state.StateVersionView(v.id, v.serial, v.lineage, v.size,"
                                + " v.jobId, v.createdAt) from StateVersion v"
                                + " where v.environmentId = :environment and v.resourceKey = :resource"
                                + (after == null ? "" : " and (v.createdAt, v.id) < (:t, :id)")
                                + " order by v.createdAt desc, v.id desc",
                        StateVersionView.class)
                .setParameter("environment", environmentId)
                .setParameter("resource", resourceKey);
        if (after != null) {
            query.setParameter("t", after.instant()).setParameter("id", after.id());
        }
        List<StateVersionView> rows = query.setMaxResults(page.limit() + 1).getResultList();
        return Page.of(rows, page.limit(), v -> v.createdAt() + "|" + v.id(), v -> v);
    }

    @Transactional
    public byte[] version(OrgScope scope, String project, String env, String resourceKey, UUID id) {
        UUID environmentId = environments.reference(scope, project, env).id();
        StateVersion version = entityManager.find(StateVersion.class, id);
        if (version == null
                || !version.resourceKey().equals(resourceKey)
                || !version.environmentId().equals(environmentId)) {
            throw PlatformException.notFound("state version `" + id + "`");
        }
        return secretBox.open(version.sealed(), StateVersion.binding(environmentId, resourceKey, id));
    }

    /** The serial of a resource's latest state version; -1 when it has none (or the version carries none). */
    public long serialOf(UUID environmentId, String resourceKey) {
        List<Long> serials = entityManager
                .createQuery(
                        "select v.serial from StateVersion v where v.environmentId = ?1"
                                + " and v.resourceKey = ?2 order by v.createdAt desc, v.serial desc",
                        Long.class)
                .setParameter(1, environmentId)
                .setParameter(2, resourceKey)
                .setMaxResults(1)
                .getResultList();
        return serials.isEmpty() || serials.get(0) == null ? -1 : serials.get(0);
    }

    private Optional<StateVersion> latest(UUID environmentId, String resourceKey) {
        return entityManager
                .createQuery(
                        "select v from StateVersion v where v.environmentId = ?1 and v.resourceKey = ?2 "
                                + "order by v.createdAt desc, v.serial desc",
                        StateVersion.class)
                .setParameter(1, environmentId)
                .setParameter(2, resourceKey)
                .setMaxResults(1)
                .getResultList()
                .stream()
                .findFirst();
    }

    /** Serialises lock and write requests of one state. */
    private void lockRow(UUID environmentId, String resourceKey) {
        entityManager
                .createNativeQuery("select pg_advisory_xact_lock(hashtext(?1))")
                .setParameter(1, environmentId + "/" + resourceKey)
                .getSingleResult();
    }

    private Optional<Object[]> currentLock(UUID environmentId, String resourceKey) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = entityManager
                .createNativeQuery(
                        "select lock_id, job_id, info::text from state_lock where environment_id = ?1 and resource_key = ?2")
                .setParameter(1, environmentId)
                .setParameter(2, resourceKey)
                .getResultList();
        return rows.stream().findFirst();
    }

    private JsonNode holder(Object[] lock) {
        try {
            return json.readTree((String) lock[2]);
        } catch (IOException e) {
            return json.createObjectNode().put("ID", (String) lock[0]);
        }
    }
}
