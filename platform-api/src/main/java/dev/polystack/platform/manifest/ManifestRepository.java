package dev.polystack.platform.manifest;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ManifestRepository implements PanacheRepositoryBase<ManifestVersion, UUID> {

    Optional<ManifestVersion> find(UUID environmentId, int number) {
        return find("environmentId = ?1 and number = ?2", environmentId, number).firstResultOptional();
    }

    Optional<ManifestVersion> latest(UUID environmentId) {
        return find("environmentId = ?1 order by number desc", environmentId).firstResultOptional();
    }

    List<ManifestVersion> page(UUID environmentId, Integer before, int limit) {
        return find(
                        "environmentId = ?1 and number < ?2 order by number desc",
                        environmentId,
                        before == null ? Integer.MAX_VALUE : before)
                .page(0, limit + 1)
                .list();
    }
}
