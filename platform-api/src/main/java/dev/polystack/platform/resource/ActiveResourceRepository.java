package dev.polystack.platform.resource;

import dev.polystack.rules.ResourceIdentity;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ActiveResourceRepository implements PanacheRepositoryBase<ActiveResource, UUID> {

    List<ActiveResource> ofEnvironment(UUID environmentId) {
        return list("environmentId = ?1 order by resId, resType, resClass", environmentId);
    }

    Optional<ActiveResource> find(UUID environmentId, ResourceIdentity identity) {
        return find("environmentId = ?1 and resType = ?2 and resClass = ?3 and resId = ?4", environmentId,
                identity.type(), identity.resourceClass(), identity.id()).firstResultOptional();
    }
}
