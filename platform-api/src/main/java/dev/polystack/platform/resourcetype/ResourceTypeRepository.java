package dev.polystack.platform.resourcetype;

import dev.polystack.platform.common.sql.InTransaction;
import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

@ApplicationScoped
class ResourceTypeRepository implements PanacheRepositoryBase<ResourceType, UUID> {

    /** What runs need of a resource type, its output schema as stored text. */
    record SpecRow(String slug, boolean developerAccessible, String outputSchema) {}

    /**
     * A resource type read with a plain statement, for claims, results and advances: no entity to load and
     * dirty-check, and the session is not flushed first (resource types change in transactions of their own).
     */
    Optional<SpecRow> specRow(UUID orgId, String slug) {
        return InTransaction.queryAll(
                        getEntityManager(),
                        "select slug, developer_accessible, output_schema::text from resource_type where org_id = ? and slug = ?",
                        row -> new SpecRow(row.getString(1), row.getBoolean(2), row.getString(3)),
                        orgId,
                        slug)
                .stream()
                .findFirst();
    }

    Optional<ResourceType> find(UUID orgId, String slug) {
        return find("orgId = ?1 and slug = ?2", orgId, slug).firstResultOptional();
    }

    List<ResourceType> page(UUID orgId, String after, int limit) {
        return find("orgId = ?1 and slug > ?2 order by slug", orgId, after == null ? "" : after)
                .page(0, limit + 1)
                .list();
    }

    List<ResourceType> all(UUID orgId) {
        return list("orgId", orgId);
    }
}
