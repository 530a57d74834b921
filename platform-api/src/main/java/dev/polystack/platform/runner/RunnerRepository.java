package dev.polystack.platform.runner;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

@ApplicationScoped
class RunnerRepository implements PanacheRepositoryBase<Runner, UUID> {

    @Inject
    DataSource dataSource;


    /** What checking a runner's token needs of its row. */
    record Credentials(UUID id, String slug, String publicKey, int maxConcurrentJobs) {
    }

    /**
     * The runner's credentials in one statement on an autocommit connection: every runner request (claim,
     * heartbeat, log batch, result) checks them, and a transaction of its own would cost two more round
     * trips each time.
     */
    Optional<Credentials> credentials(UUID orgId, String slug) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(
                     "select id, public_key, max_concurrent_jobs from runner where org_id = ? and slug = ?")) {
            statement.setObject(1, orgId);
            statement.setString(2, slug);
            try (ResultSet row = statement.executeQuery()) {
                return row.next()
                        ? Optional.of(new Credentials(row.getObject(1, UUID.class), slug, row.getString(2), row.getInt(3)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not read runner " + slug, e);
        }
    }

    Optional<Runner> find(UUID orgId, String slug) {
        return find("orgId = ?1 and slug = ?2", orgId, slug).firstResultOptional();
    }

    List<Runner> page(UUID orgId, String after, int limit) {
        return find("orgId = ?1 and slug > ?2 order by slug", orgId, after == null ? "" : after).page(0, limit + 1).list();
    }
}
