package dev.polystack.platform.runner;

import dev.polystack.platform.common.sql.Autocommit;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class RunnerRepository implements PanacheRepositoryBase<Runner, UUID> {

    @Inject
    Autocommit autocommit;

    /** What checking a runner's token needs of its row. */
    record Credentials(UUID id, String slug, String publicKey, int maxConcurrentJobs) {}

    /**
     * The runner's credentials in one statement on an autocommit connection: every runner request (claim,
     * heartbeat, log batch, result) checks them, and a transaction of its own would cost two more round
     * trips each time.
     */
    Optional<Credentials> credentials(UUID orgId, String slug) {
        return autocommit.first(
                "select id, public_key, max_concurrent_jobs from runner where org_id = ? and slug = ?",
                row -> new Credentials(row.getObject(1, UUID.class), slug, row.getString(2), row.getInt(3)),
                orgId,
                slug);
    }

    Optional<Runner> find(UUID orgId, String slug) {
        return find("orgId = ?1 and slug = ?2", orgId, slug).firstResultOptional();
    }

    List<Runner> page(UUID orgId, String after, int limit) {
        return find("orgId = ?1 and slug > ?2 order by slug", orgId, after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }
}
