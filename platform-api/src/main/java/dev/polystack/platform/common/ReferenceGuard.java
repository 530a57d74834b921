package dev.polystack.platform.common;

import dev.polystack.platform.common.problem.PlatformException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Refuses to delete an object that others still use, and says which ones. The references are the
 * schema's foreign keys plus the ones held by name inside module versions (provider mappings and
 * dependencies), which no foreign key can express.
 */
@ApplicationScoped
public class ReferenceGuard {

    /** How a row of some table refers to the object, and how to name that row in a message. */
    private record Reference(String label, String table, String condition, String display) {}

    private static final String ENV_DISPLAY =
            "(select p.slug from project p where p.id = t.project_id) || '/' || t.slug";
    /** Restricts module versions to the latest ones of modules in the same organization as the referenced row. */
    private static final String LATEST_IN_ORG = " and exists (select 1 from module m where m.id = t.module_id"
            + " and m.latest_version = t.number and m.org_id = (select r.org_id from %s r where r.id = ?1))";

    private static final String ACTIVE_DISPLAY =
            "(select p.slug || '/' || e.slug from environment e join project p on p.id = e.project_id"
                    + " where e.id = t.environment_id) || ':' || t.res_type || '/' || t.res_class || '/' || t.res_id";
    private static final String MODULE_OF_VERSION = "(select m.slug from module m where m.id = t.module_id)";

    private static final Map<String, List<Reference>> REFERENCES = Map.of(
            "project",
                    List.of(
                            new Reference("environments", "environment", "t.project_id = ?1", ENV_DISPLAY),
                            new Reference("module rules", "module_rule", "t.project_id = ?1", "t.id::text"),
                            new Reference("runner rules", "runner_rule", "t.project_id = ?1", "t.id::text")),
            "env_type",
                    List.of(
                            new Reference("environments", "environment", "t.env_type_id = ?1", ENV_DISPLAY),
                            new Reference("module rules", "module_rule", "t.env_type_id = ?1", "t.id::text"),
                            new Reference("runner rules", "runner_rule", "t.env_type_id = ?1", "t.id::text")),
            "environment",
                    List.of(
                            new Reference("module rules", "module_rule", "t.env_id = ?1", "t.id::text"),
                            new Reference("runner rules", "runner_rule", "t.env_id = ?1", "t.id::text")),
            "resource_type",
                    List.of(
                            new Reference("modules", "module", "t.resource_type_id = ?1", "t.slug"),
                            new Reference("runner rules", "runner_rule", "t.resource_type_id = ?1", "t.id::text"),
                            new Reference(
                                    "module dependencies",
                                    "module_version",
                                    "exists (select 1 from jsonb_each(t.dependencies) d where d.value->>'type' = (select slug from resource_type where id = ?1))"
                                            + LATEST_IN_ORG.formatted("resource_type"),
                                    MODULE_OF_VERSION)),
            "provider",
                    List.of(new Reference(
                            "modules",
                            "module_version",
                            "exists (select 1 from jsonb_each_text(t.provider_mapping) pm, provider p where p.id = ?1 and pm.value = p.provider_type || '.' || p.slug)"
                                    + LATEST_IN_ORG.formatted("provider"),
                            MODULE_OF_VERSION)),
            "module",
                    List.of(
                            new Reference("module rules", "module_rule", "t.module_id = ?1", "t.id::text"),
                            new Reference(
                                    "provisioned resources", "active_resource", "t.module_id = ?1", ACTIVE_DISPLAY)),
            "runner",
                    List.of(
                            new Reference("runner rules", "runner_rule", "t.runner_id = ?1", "t.id::text"),
                            new Reference(
                                    "provisioned resources", "active_resource", "t.runner_id = ?1", ACTIVE_DISPLAY)));

    @Inject
    EntityManager entityManager;

    /**
     * Throws a 409 problem naming up to five users per kind when anything still refers to the row
     * {@code id} of {@code table}.
     */
    public void requireUnused(String table, UUID id, String what) {
        List<String> uses = new ArrayList<>();
        for (Reference reference : REFERENCES.getOrDefault(table, List.of())) {
            @SuppressWarnings("unchecked")
            List<String> names = entityManager
                    .createNativeQuery("select " + reference.display() + " from " + reference.table() + " t where "
                            + reference.condition() + " order by 1 limit 6")
                    .setParameter(1, id)
                    .getResultList();
            if (!names.isEmpty()) {
                String shown = String.join(", ", names.subList(0, Math.min(5, names.size())));
                uses.add(reference.label() + " " + shown + (names.size() > 5 ? " and more" : ""));
            }
        }
        if (!uses.isEmpty()) {
            throw PlatformException.inUse(what + " is still used by " + String.join("; ", uses));
        }
    }
}
