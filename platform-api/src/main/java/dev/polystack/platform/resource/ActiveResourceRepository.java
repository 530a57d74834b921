package dev.polystack.platform.resource;

import dev.polystack.rules.ResourceIdentity;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.jpa.HibernateHints;

import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ActiveResourceRepository implements PanacheRepositoryBase<ActiveResource, UUID> {

    List<ActiveResource> ofEnvironment(UUID environmentId) {
        return list("environmentId = ?1 order by resId, resType, resClass", environmentId);
    }

    Optional<ActiveResource> find(UUID environmentId, ResourceIdentity identity) {
        return find(
                        "environmentId = ?1 and resType = ?2 and resClass = ?3 and resId = ?4",
                        environmentId,
                        identity.type(),
                        identity.resourceClass(),
                        identity.id())
                .firstResultOptional();
    }

    /**
     * The same without flushing the session first. Before a query Hibernate dirty-checks every entity the
     * session holds: an advance that dispatches 10,000 ready nodes looked one up per node, and took longer
     * than its transaction may. Active resources change only in job results and environment deletions, each
     * in a transaction of its own, never in an advance.
     */
    Optional<ActiveResource> findWithoutFlush(UUID environmentId, ResourceIdentity identity) {
        return find(
                        "environmentId = ?1 and resType = ?2 and resClass = ?3 and resId = ?4",
                        environmentId,
                        identity.type(),
                        identity.resourceClass(),
                        identity.id())
                .withHint(HibernateHints.HINT_FLUSH_MODE, "COMMIT")
                .firstResultOptional();
    }

    /** The active resources of these identities in one environment, read at once and without a flush, as {@link #findWithoutFlush}. */
    List<ActiveResource> findAllWithoutFlush(UUID environmentId, Collection<ResourceIdentity> identities) {
        if (identities.isEmpty()) {
            return List.of();
        }
        // by environment and id (the unique key's first and last columns); the few of another type or class dropped
        // here
        List<String> ids =
                identities.stream().map(ResourceIdentity::id).distinct().toList();
        return find("environmentId = ?1 and resId in ?2", environmentId, ids)
                .withHint(HibernateHints.HINT_FLUSH_MODE, "COMMIT")
                .stream()
                .filter(resource -> identities.contains(resource.identity()))
                .toList();
    }
}
